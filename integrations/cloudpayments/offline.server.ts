import fs from 'node:fs';
import path from 'node:path';
import {
  CloudPaymentsError,
  formatAmount,
  type CloudPaymentsClient,
  type CloudPaymentsLogger,
  type ProviderPayment,
} from './cloudpayments';
import { decodedBody, signBody } from './hmac.server';

// The offline stand-in for CloudPayments (INTEGRATIONS.md §1 "Stand-in"): the shop's own
// payment page (api/payments/offline.routes.server.ts) charges through it. It mints
// TransactionIds, posts the shop's Check then Pay or Fail notifications as CloudPayments does
// (form bodies, TestMode=1, Content-HMAC and X-Content-HMAC signed with the API secret) and
// expects {"code":0}; it remembers every payment (DATA_DIR/outbox/cloudpayments.jsonl) so
// findPayment answers like `/v2/payments/find`, and it can replay any notification it sent.

export const CLOUDPAYMENTS_OUTBOX_FILE = 'cloudpayments.jsonl';

export type NotificationKind = 'check' | 'pay' | 'fail' | 'refund';

/** Sends one notification to the shop; resolves with the HTTP status and the answer's `code`. */
export type NotificationDelivery = (
  kind: NotificationKind,
  body: string,
  headers: Record<string, string>,
) => Promise<{ status: number; code: number | null }>;

export interface OfflinePayment extends ProviderPayment {
  email: string;
  description: string;
  data: unknown;
  cardFirstSix: string;
  cardLastFour: string;
  dateTime: string;
  reason: string | null;
  reasonCode: number | null;
  refundedKopecks: number;
  /** Idempotency keys of the refunds taken (as X-Request-ID at CloudPayments): a repeat refunds nothing. */
  refundKeys?: string[];
  /** The raw bodies sent, per kind: what replay sends again. */
  notices: Partial<Record<NotificationKind, string>>;
}

export interface OfflineChargeRequest {
  invoiceId: string;
  accountId: string;
  email: string;
  description: string;
  amountKopecks: number;
  currency: string;
  data?: unknown;
  cardNumber: string;
  /** The 3-D Secure code typed by the shopper: '0000' fails authentication (5206). */
  secureCode?: string;
  /** The shopper pressed 'Отклонить': the bank declines (5051). */
  decline?: boolean;
}

export type OfflineChargeResult =
  | { success: true; transactionId: string; payCode: number | null }
  | {
      success: false;
      transactionId: string;
      reasonCode: number;
      reason: string;
      message: string;
      checkCode: number | null;
    };

export const DECLINE_REASONS: Readonly<Record<number, { reason: string; message: string }>> = {
  5051: { reason: 'InsufficientFunds', message: 'Недостаточно средств на карте' },
  5206: { reason: 'Authentication failed', message: 'Не пройдена проверка 3-D Secure' },
  5057: { reason: 'TransactionNotPermitted', message: 'Платёж отклонён магазином' },
};

export interface OfflineCloudPayments extends CloudPaymentsClient {
  readonly kind: 'offline';
  readonly publicId: string;
  /** Where notifications go: set once the API's handlers exist. */
  connect(deliver: NotificationDelivery): void;
  charge(request: OfflineChargeRequest): Promise<OfflineChargeResult>;
  /** Sends a notification it sent before once more, byte for byte, freshly signed the same way. */
  replay(transactionId: string, kind: NotificationKind): Promise<{ status: number; code: number | null }>;
  payment(transactionId: string): OfflinePayment | undefined;
  /** A signed notification body for a payment, as CloudPayments would send it (tests build variants from it). */
  notification(payment: OfflinePayment, kind: NotificationKind): { body: string; headers: Record<string, string> };
}

export interface OfflineCloudPaymentsOptions {
  publicId: string;
  apiSecret: string;
  /** Where the payments are remembered; none: in memory only. */
  outboxDir?: string | undefined;
  log?: CloudPaymentsLogger | undefined;
}

/** UTC 'yyyy-MM-dd HH:mm:ss', CloudPayments' DateTime. */
function dateTime(d: Date): string {
  return d.toISOString().slice(0, 19).replace('T', ' ');
}

export function createOfflineCloudPayments(options: OfflineCloudPaymentsOptions): OfflineCloudPayments {
  const payments = new Map<string, OfflinePayment>();
  const file = options.outboxDir ? path.join(options.outboxDir, CLOUDPAYMENTS_OUTBOX_FILE) : null;
  if (file && fs.existsSync(file)) {
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      try {
        const p = JSON.parse(line) as OfflinePayment;
        payments.set(p.transactionId, p);
      } catch {
        // a torn last line after a crash: the earlier state stands
      }
    }
  }
  const save = (p: OfflinePayment) => {
    payments.set(p.transactionId, p);
    if (!file) return;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.appendFileSync(file, `${JSON.stringify(p)}\n`);
  };
  let deliver: NotificationDelivery | null = null;
  let seq = 0;
  // Numeric like CloudPayments' ids, unique across restarts of one DATA_DIR.
  const mint = () => String(Date.now() * 1000 + (seq++ % 1000));

  const sign = (body: string): Record<string, string> => ({
    'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
    'content-hmac': signBody(options.apiSecret, body),
    'x-content-hmac': signBody(options.apiSecret, decodedBody(body)),
  });

  function notification(p: OfflinePayment, kind: NotificationKind): { body: string; headers: Record<string, string> } {
    const fields: Record<string, string> =
      kind === 'refund'
        ? {
            TransactionId: String(Number(p.transactionId) + 1),
            PaymentTransactionId: p.transactionId,
            Amount: formatAmount(p.refundedKopecks || p.amountKopecks),
            DateTime: dateTime(new Date()),
            OperationType: 'Refund',
            InvoiceId: p.invoiceId,
            AccountId: p.accountId,
            Email: p.email,
            Data: JSON.stringify(p.data ?? null),
          }
        : {
            TransactionId: p.transactionId,
            Amount: formatAmount(p.amountKopecks),
            Currency: p.currency,
            PaymentAmount: formatAmount(p.amountKopecks),
            PaymentCurrency: p.currency,
            DateTime: p.dateTime,
            CardFirstSix: p.cardFirstSix,
            CardLastFour: p.cardLastFour,
            CardType: p.cardFirstSix.startsWith('2') ? 'MIR' : 'Visa',
            CardExpDate: '12/30',
            TestMode: '1',
            Status: kind === 'fail' ? 'Declined' : 'Completed',
            OperationType: 'Payment',
            GatewayName: 'Test',
            InvoiceId: p.invoiceId,
            AccountId: p.accountId,
            SubscriptionId: '',
            Name: 'CARDHOLDER NAME',
            Email: p.email,
            IpAddress: '127.0.0.1',
            Description: p.description,
            PaymentMethod: 'Card',
            Data: JSON.stringify(p.data ?? null),
            ...(kind === 'pay' ? { Token: `tk_offline_${p.transactionId}` } : {}),
            ...(kind === 'fail' ? { Reason: p.reason ?? '', ReasonCode: String(p.reasonCode ?? 0) } : {}),
          };
    const body = new URLSearchParams(fields).toString();
    return { body, headers: sign(body) };
  }

  async function send(p: OfflinePayment, kind: NotificationKind): Promise<{ status: number; code: number | null }> {
    if (!deliver) throw new CloudPaymentsError('offline CloudPayments: no notification handler connected');
    const { body, headers } = notification(p, kind);
    p.notices[kind] = body;
    const answer = await deliver(kind, body, headers);
    if (answer.code !== 0)
      options.log?.warn(
        { transactionId: p.transactionId, kind, ...answer },
        'offline CloudPayments: the shop did not answer {"code":0}',
      );
    return answer;
  }

  return {
    kind: 'offline',
    publicId: options.publicId,
    connect(d) {
      deliver = d;
    },
    async findPayment(invoiceId) {
      // The latest payment of the invoice, a completed one first, as the API's find answers.
      const found = [...payments.values()].filter((p) => p.invoiceId === invoiceId);
      const best = found.filter((p) => p.status === 'Completed').pop() ?? found.pop();
      if (!best) return null;
      const { transactionId, accountId, amountKopecks, currency, status, testMode } = best;
      return { transactionId, invoiceId, accountId, amountKopecks, currency, status, testMode };
    },
    async refund(transactionId, amountKopecks, key) {
      const p = payments.get(transactionId);
      if (!p || p.status !== 'Completed')
        throw new CloudPaymentsError(`offline CloudPayments: no completed payment ${transactionId}`);
      if (key && p.refundKeys?.includes(key)) return;
      if (amountKopecks <= 0 || p.refundedKopecks + amountKopecks > p.amountKopecks)
        throw new CloudPaymentsError('offline CloudPayments: refund above the payment');
      p.refundedKopecks += amountKopecks;
      if (key) p.refundKeys = [...(p.refundKeys ?? []), key];
      save(p);
      options.log?.info?.({ transactionId, amountKopecks }, 'offline CloudPayments: refunded');
      // As CloudPayments does, the shop hears of it by a Refund notification (a failure there is the shop's, not the refund's).
      if (deliver)
        await send(p, 'refund').catch((err: unknown) =>
          options.log?.warn({ err: String(err) }, 'offline CloudPayments: Refund notice failed'),
        );
    },
    async charge(request) {
      const digits = request.cardNumber.replace(/\D/g, '');
      const p: OfflinePayment = {
        transactionId: mint(),
        invoiceId: request.invoiceId,
        accountId: request.accountId,
        amountKopecks: request.amountKopecks,
        currency: request.currency,
        status: 'AwaitingAuthentication',
        testMode: true,
        email: request.email,
        description: request.description,
        data: request.data ?? null,
        cardFirstSix: digits.slice(0, 6),
        cardLastFour: digits.slice(-4),
        dateTime: dateTime(new Date()),
        reason: null,
        reasonCode: null,
        refundedKopecks: 0,
        notices: {},
      };
      const check = await send(p, 'check');
      const declineWith = (code: number): OfflineChargeResult => {
        const why = DECLINE_REASONS[code] ?? { reason: 'Declined', message: 'Платёж отклонён' };
        Object.assign(p, { status: 'Declined', reason: why.reason, reasonCode: code });
        return {
          success: false,
          transactionId: p.transactionId,
          reasonCode: code,
          reason: why.reason,
          message: why.message,
          checkCode: check.code,
        };
      };
      if (check.code !== 0) {
        // A Check refused (or unreachable) declines the payment; no Fail follows it.
        const result = declineWith(5057);
        save(p);
        return result;
      }
      // INTEGRATIONS.md test cards: 4012 8888 8888 1881 lacks funds.
      const code =
        request.decline || digits === '4012888888881881'
          ? 5051
          : (request.secureCode ?? '').trim() === '0000'
            ? 5206
            : 0;
      if (code !== 0) {
        const result = declineWith(code);
        await send(p, 'fail');
        save(p);
        return result;
      }
      p.status = 'Completed';
      save(p);
      const pay = await send(p, 'pay');
      save(p);
      return { success: true, transactionId: p.transactionId, payCode: pay.code };
    },
    async replay(transactionId, kind) {
      const p = payments.get(transactionId);
      const body = p?.notices[kind];
      if (!p || !body)
        throw new CloudPaymentsError(`offline CloudPayments: nothing of kind ${kind} sent for ${transactionId}`);
      if (!deliver) throw new CloudPaymentsError('offline CloudPayments: no notification handler connected');
      return deliver(kind, body, sign(body));
    },
    payment(transactionId) {
      return payments.get(transactionId);
    },
    notification,
  };
}
