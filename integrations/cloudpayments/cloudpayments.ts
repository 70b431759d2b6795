// The CloudPayments seam (INTEGRATIONS.md §1): the shop asks this interface, never CloudPayments
// directly, so a machine with no internet runs the same code paths against the offline stand-in.
// Only what the server needs: to look a payment up (a browser's "it went through" is checked
// this way) and to refund one. Money in kopecks here; the wire speaks roubles.

export const CLOUDPAYMENTS_PROVIDER = 'cloudpayments';

/** Payment statuses of CloudPayments' API (`Model.Status`). */
export type CloudPaymentStatus =
  'AwaitingAuthentication' | 'Authorized' | 'Completed' | 'Cancelled' | 'Declined' | (string & {});

/** The provider's view of one payment (`/v2/payments/find` Model). */
export interface ProviderPayment {
  transactionId: string;
  invoiceId: string;
  accountId: string;
  amountKopecks: number;
  currency: string;
  status: CloudPaymentStatus;
  testMode: boolean;
}

/** A call that failed (network, HTTP status, `Success: false`); `message` is for the log. */
export class CloudPaymentsError extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'CloudPaymentsError';
  }
}

export interface CloudPaymentsClient {
  readonly kind: 'offline' | 'cloudpayments';
  /** The payment of this invoice (the shop's order id), or null when the provider has none. Rejects with CloudPaymentsError. */
  findPayment(invoiceId: string): Promise<ProviderPayment | null>;
  /**
   * Refunds `amountKopecks` of a completed payment. Idempotent per `key` (X-Request-ID; default:
   * per transaction and amount, so two returns of the same amount must each pass a key of their own).
   * Rejects with CloudPaymentsError.
   */
  refund(transactionId: string, amountKopecks: number, key?: string): Promise<void>;
}

export interface CloudPaymentsLogger {
  warn(obj: object, msg: string): void;
  info?(obj: object, msg: string): void;
}

/** Kopecks as CloudPayments writes amounts: '1234.50'. */
export function formatAmount(kopecks: number): string {
  return `${Math.floor(kopecks / 100)}.${String(kopecks % 100).padStart(2, '0')}`;
}

/** '1234.5', '1234.50', 1234.5 → 123450; null for anything else (more than 2 decimals included). */
export function parseAmount(value: unknown): number | null {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const m = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}
