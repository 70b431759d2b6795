import crypto from 'node:crypto';
import {
  CloudPaymentsError,
  formatAmount,
  parseAmount,
  type CloudPaymentsClient,
  type CloudPaymentsLogger,
  type ProviderPayment,
} from './cloudpayments';

// CloudPayments' server API (INTEGRATIONS.md §1): JSON over HTTPS with HTTP Basic
// publicId:apiSecret; every answer is {Success, Message, Model}, where Success is about the
// request, not the payment. X-Request-ID makes a refund idempotent for an hour, so a retried
// job cannot refund twice.

export const CLOUDPAYMENTS_DEFAULT_BASE_URL = 'https://api.cloudpayments.ru';
export const CLOUDPAYMENTS_DEFAULT_TIMEOUT_MS = 10_000;

export interface CloudPaymentsClientOptions {
  publicId: string;
  apiSecret: string;
  baseUrl?: string;
  timeoutMs?: number;
  log?: CloudPaymentsLogger;
  /** Injected for tests; defaults to the global fetch. */
  fetch?: typeof fetch;
}

interface Answer {
  Success?: boolean;
  Message?: string | null;
  Model?: unknown;
}

export function createCloudPaymentsClient(options: CloudPaymentsClientOptions): CloudPaymentsClient {
  const baseUrl = (options.baseUrl ?? CLOUDPAYMENTS_DEFAULT_BASE_URL).replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? CLOUDPAYMENTS_DEFAULT_TIMEOUT_MS;
  const doFetch = options.fetch ?? fetch;
  const auth = `Basic ${Buffer.from(`${options.publicId}:${options.apiSecret}`).toString('base64')}`;

  async function call(path: string, body: Record<string, unknown>, requestId?: string): Promise<Answer> {
    let res: Response;
    try {
      res = await doFetch(`${baseUrl}${path}`, {
        method: 'POST',
        headers: {
          authorization: auth,
          'content-type': 'application/json',
          accept: 'application/json',
          'x-request-id': requestId ?? crypto.randomUUID(),
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw new CloudPaymentsError(`CloudPayments ${path}: ${err instanceof Error ? err.message : String(err)}`);
    }
    const text = await res.text().catch(() => '');
    if (!res.ok) throw new CloudPaymentsError(`CloudPayments ${path}: HTTP ${res.status}`, res.status);
    try {
      return JSON.parse(text) as Answer;
    } catch {
      throw new CloudPaymentsError(`CloudPayments ${path}: not JSON`, res.status);
    }
  }

  return {
    kind: 'cloudpayments',
    async findPayment(invoiceId) {
      const answer = await call('/v2/payments/find', { InvoiceId: invoiceId });
      if (!answer.Success || !answer.Model || typeof answer.Model !== 'object') {
        // "Not found" is an answer, not a failure.
        if (answer.Success === false && /not ?found|не найден/i.test(answer.Message ?? '')) return null;
        if (answer.Success === false)
          throw new CloudPaymentsError(`CloudPayments find: ${answer.Message ?? 'refused'}`);
        return null;
      }
      const m = answer.Model as Record<string, unknown>;
      const amountKopecks = parseAmount(m.Amount);
      if (amountKopecks === null || m.TransactionId === undefined)
        throw new CloudPaymentsError('CloudPayments find: a payment without amount or transaction');
      return {
        transactionId: String(m.TransactionId),
        invoiceId: String(m.InvoiceId ?? ''),
        accountId: String(m.AccountId ?? ''),
        amountKopecks,
        currency: String(m.Currency ?? ''),
        status: String(m.Status ?? ''),
        testMode: m.TestMode === true || m.TestMode === 1 || m.TestMode === '1',
      } satisfies ProviderPayment;
    },
    async refund(transactionId, amountKopecks, key) {
      const answer = await call(
        '/payments/refund',
        { TransactionId: Number(transactionId), Amount: Number(formatAmount(amountKopecks)) },
        key ?? `refund-${transactionId}-${amountKopecks}`,
      );
      if (!answer.Success) throw new CloudPaymentsError(`CloudPayments refund: ${answer.Message ?? 'refused'}`);
      options.log?.info?.({ transactionId, amountKopecks }, 'CloudPayments: refunded');
    },
  };
}
