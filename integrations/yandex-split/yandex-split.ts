// The Yandex Split seam (INTEGRATIONS.md §6): Yandex Pay's merchant API with the SPLIT payment
// method. The shop asks this interface, never Yandex directly; the offline stand-in answers the
// same. Money in kopecks here; the wire speaks decimal strings of roubles ('1234.50').

export const YANDEX_SPLIT_PROVIDER = 'yandex-split';

export type SplitPaymentStatus =
  'PENDING' | 'AUTHORIZED' | 'CAPTURED' | 'VOIDED' | 'REFUNDED' | 'PARTIALLY_REFUNDED' | 'FAILED' | (string & {});

/** Statuses in which the order is paid for the shop (single-stage: CAPTURED). */
export const SPLIT_PAID: readonly string[] = ['CAPTURED'];
/** Authorised only: the shop captures it to take the money. */
export const SPLIT_CAPTURABLE: readonly string[] = ['AUTHORIZED'];
export const SPLIT_DECLINED: readonly string[] = ['FAILED', 'VOIDED'];

export interface SplitItem {
  productId: string;
  title: string;
  quantity: number;
  /** The line total after its discount. */
  totalKopecks: number;
}

export interface SplitCreateRequest {
  /** Our id of this attempt (`<order id>-<n>`). */
  orderId: string;
  amountKopecks: number;
  items: SplitItem[];
  successUrl: string;
  errorUrl: string;
}

export interface SplitOrder {
  orderId: string;
  paymentStatus: SplitPaymentStatus;
  /** null when the answer did not say (shape unconfirmed: orderAmount or cart.total.amount). */
  amountKopecks: number | null;
  paymentUrl: string | null;
}

export class YandexSplitError extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'YandexSplitError';
  }
}

export interface YandexSplitClient {
  readonly kind: 'offline' | 'yandex-split';
  /** POST /orders with availablePaymentMethods ['SPLIT']: where the shopper goes. */
  createOrder(request: SplitCreateRequest): Promise<{ paymentUrl: string }>;
  /** GET /orders/{id}; null when there is no such order. */
  getOrder(orderId: string): Promise<SplitOrder | null>;
  /** POST /orders/{id}/capture (two-stage merchants). */
  capture(orderId: string, amountKopecks: number): Promise<void>;
  /** POST /orders/{id}/refund: `refundKopecks` back, `remainingKopecks` is the order's amount after it. */
  refund(orderId: string, refundKopecks: number, remainingKopecks: number): Promise<void>;
}

export interface YandexSplitLogger {
  warn(obj: object, msg: string): void;
  info?(obj: object, msg: string): void;
}

/** Kopecks as Yandex Pay writes amounts: '1234.50'. */
export function formatSplitAmount(kopecks: number): string {
  return `${Math.floor(kopecks / 100)}.${String(kopecks % 100).padStart(2, '0')}`;
}

/** '1234.5', '1234.50', 1234.5 → 123450; null otherwise. */
export function parseSplitAmount(value: unknown): number | null {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const m = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text);
  return m ? Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0')) : null;
}

/** GET /orders/{id} `data` → SplitOrder (reads `order.orderAmount`, else `order.cart.total.amount`). */
export function readSplitOrder(orderId: string, data: unknown): SplitOrder {
  const order = ((data as { order?: unknown } | null)?.order ?? data ?? {}) as Record<string, unknown>;
  const cart = order.cart as { total?: { amount?: unknown } } | undefined;
  if (typeof order.paymentStatus !== 'string')
    throw new YandexSplitError('Yandex Split: an order without paymentStatus');
  return {
    orderId: typeof order.orderId === 'string' ? order.orderId : orderId,
    paymentStatus: order.paymentStatus,
    amountKopecks: parseSplitAmount(order.orderAmount) ?? parseSplitAmount(cart?.total?.amount),
    paymentUrl: typeof order.paymentUrl === 'string' ? order.paymentUrl : null,
  };
}
