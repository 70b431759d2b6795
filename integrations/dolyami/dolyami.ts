// The Dolyami seam (INTEGRATIONS.md §6): the shop asks this interface, never Dolyami directly,
// so the offline stand-in runs the same paths. Money in kopecks here; the wire speaks roubles.

export const DOLYAMI_PROVIDER = 'dolyami';

/** Order statuses Dolyami documents (INTEGRATIONS.md §6). */
export type DolyamiStatus =
  'new' | 'approved' | 'rejected' | 'canceled' | 'wait_for_commit' | 'committed' | 'completed' | (string & {});

/** Statuses in which the shopper's approval holds money the shop must commit to take it. */
export const DOLYAMI_COMMITTABLE: readonly string[] = ['approved', 'wait_for_commit'];
/** Statuses in which the order is paid for the shop. */
export const DOLYAMI_PAID: readonly string[] = ['committed', 'completed'];
/** Statuses that end the attempt without money. */
export const DOLYAMI_DECLINED: readonly string[] = ['rejected', 'canceled'];

export interface DolyamiItem {
  name: string;
  quantity: number;
  /** One item's price after its discount share. */
  priceKopecks: number;
  sku?: string;
}

export interface DolyamiCreateRequest {
  /** Our id of this attempt (`<order id>-<n>`): Dolyami's order id. */
  id: string;
  amountKopecks: number;
  items: DolyamiItem[];
  client: { firstName: string; lastName: string; phone: string; email: string };
  notificationUrl: string;
  successUrl: string;
  failUrl: string;
}

export interface DolyamiScheduleEntry {
  amountKopecks: number;
  /** YYYY-MM-DD */
  date: string;
  status: string;
}

export interface DolyamiOrder {
  id: string;
  status: DolyamiStatus;
  amountKopecks: number;
  residualAmountKopecks: number | null;
  link: string | null;
  schedule: DolyamiScheduleEntry[];
}

export class DolyamiError extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'DolyamiError';
  }
}

export interface DolyamiClient {
  readonly kind: 'offline' | 'dolyami';
  /** orders/create: the order at Dolyami and the link the shopper goes to. */
  create(request: DolyamiCreateRequest): Promise<DolyamiOrder & { link: string }>;
  /** orders/{id}/info; null when Dolyami has no such order. */
  info(id: string): Promise<DolyamiOrder | null>;
  /** orders/{id}/commit: takes the approved money. */
  commit(id: string, amountKopecks: number, items: DolyamiItem[]): Promise<DolyamiOrder>;
  /** orders/{id}/cancel: gives up an approved, uncommitted order. */
  cancel(id: string): Promise<void>;
  /**
   * orders/{id}/refund; idempotent at our side (X-Correlation-ID) per `key`, or per order and
   * amount without one (two returns of the same amount then need keys of their own).
   */
  refund(id: string, amountKopecks: number, items: DolyamiItem[], key?: string): Promise<{ refundId: string }>;
}

export interface DolyamiLogger {
  warn(obj: object, msg: string): void;
  info?(obj: object, msg: string): void;
}

/** Kopecks as Dolyami's JSON numbers (roubles, 2 decimals). */
export function toRoubles(kopecks: number): number {
  return Math.round(kopecks) / 100;
}

/** A JSON amount in roubles → kopecks; null when it is not an amount. */
export function fromRoubles(value: unknown): number | null {
  const n =
    typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  if (!Number.isFinite(n) || n < 0) return null;
  const k = Math.round(n * 100);
  return Math.abs(k - n * 100) < 1e-6 ? k : null;
}

/** Reads Dolyami's order answer (create, info, commit). */
export function readOrder(id: string, body: unknown): DolyamiOrder {
  const b = (body ?? {}) as Record<string, unknown>;
  const amountKopecks = fromRoubles(b.amount);
  if (amountKopecks === null || typeof b.status !== 'string')
    throw new DolyamiError('Dolyami: an order answer without status or amount');
  const schedule = Array.isArray(b.payment_schedule) ? (b.payment_schedule as Record<string, unknown>[]) : [];
  return {
    id: typeof b.id === 'string' || typeof b.id === 'number' ? String(b.id) : id,
    status: b.status,
    amountKopecks,
    residualAmountKopecks: fromRoubles(b.residual_amount),
    link: typeof b.link === 'string' ? b.link : null,
    schedule: schedule.map((s) => ({
      amountKopecks: fromRoubles(s.amount) ?? 0,
      date: String(s.payment_date ?? s.date ?? ''),
      status: String(s.status ?? ''),
    })),
  };
}

/** The items as Dolyami's JSON writes them. */
export function wireItems(
  items: readonly DolyamiItem[],
): { name: string; quantity: number; price: number; sku?: string }[] {
  return items.map((i) => ({
    name: i.name.slice(0, 255),
    quantity: i.quantity,
    price: toRoubles(i.priceKopecks),
    ...(i.sku ? { sku: i.sku } : {}),
  }));
}
