import crypto from 'node:crypto';
import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';
import {
  formatSplitAmount,
  readSplitOrder,
  YandexSplitError,
  type SplitPaymentStatus,
  type YandexSplitClient,
  type YandexSplitLogger,
} from './yandex-split';

// Yandex Pay's merchant API v1 with the SPLIT method (INTEGRATIONS.md §6): JSON, `Authorization:
// Api-Key <key>` (the sandbox key is the merchant id), an X-Request-Id kept on retries of one
// operation. Webhooks are ES256 JWTs checked against Yandex's JWKS by `kid`, then `exp`, then
// our merchantId; what they say is confirmed with GET /orders/{id} before anything is paid.

export const YANDEX_SPLIT_DEFAULT_BASE_URL = 'https://pay.yandex.ru/api/merchant/v1';
export const YANDEX_SPLIT_SANDBOX_BASE_URL = 'https://sandbox.pay.yandex.ru/api/merchant/v1';
export const YANDEX_SPLIT_DEFAULT_JWKS_URL = 'https://pay.yandex.ru/api/jwks';
export const YANDEX_SPLIT_DEFAULT_TIMEOUT_MS = 15_000;

export interface YandexSplitClientOptions {
  apiKey: string;
  baseUrl?: string;
  timeoutMs?: number;
  log?: YandexSplitLogger;
  fetch?: typeof fetch;
}

export function createYandexSplitClient(options: YandexSplitClientOptions): YandexSplitClient {
  const baseUrl = (options.baseUrl ?? YANDEX_SPLIT_DEFAULT_BASE_URL).replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? YANDEX_SPLIT_DEFAULT_TIMEOUT_MS;
  const doFetch = options.fetch ?? fetch;

  async function call(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    requestId?: string,
  ): Promise<{ status: number; json: unknown }> {
    let res: Response;
    try {
      res = await doFetch(`${baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Api-Key ${options.apiKey}`,
          accept: 'application/json',
          'x-request-id': requestId ?? crypto.randomUUID(),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw new YandexSplitError(`Yandex Split ${path}: ${err instanceof Error ? err.message : String(err)}`);
    }
    const text = await res.text().catch(() => '');
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    return { status: res.status, json };
  }
  const data = (path: string, r: { status: number; json: unknown }) => {
    const answer = r.json as { status?: unknown; data?: unknown; reasonCode?: unknown; reason?: unknown } | null;
    if (r.status < 200 || r.status >= 300 || answer?.status !== 'success') {
      throw new YandexSplitError(
        `Yandex Split ${path}: HTTP ${r.status} ${String(answer?.reasonCode ?? answer?.reason ?? '')}`.trim(),
        r.status,
      );
    }
    return answer.data;
  };
  const orderPath = (id: string) => `/orders/${encodeURIComponent(id)}`;

  return {
    kind: 'yandex-split',
    async createOrder(request) {
      const body = {
        orderId: request.orderId,
        currencyCode: 'RUB',
        availablePaymentMethods: ['SPLIT'],
        cart: {
          items: request.items.map((i) => ({
            productId: i.productId,
            title: i.title.slice(0, 255),
            quantity: { count: String(i.quantity) },
            total: formatSplitAmount(i.totalKopecks),
          })),
          total: { amount: formatSplitAmount(request.amountKopecks) },
        },
        redirectUrls: { onSuccess: request.successUrl, onError: request.errorUrl },
      };
      const d = data('/orders', await call('POST', '/orders', body, `create-${request.orderId}`)) as {
        paymentUrl?: unknown;
      } | null;
      if (typeof d?.paymentUrl !== 'string') throw new YandexSplitError('Yandex Split /orders: no paymentUrl');
      options.log?.info?.({ orderId: request.orderId }, 'Yandex Split: order created');
      return { paymentUrl: d.paymentUrl };
    },
    async getOrder(orderId) {
      const r = await call('GET', orderPath(orderId));
      if (r.status === 404) return null;
      return readSplitOrder(orderId, data('GET /orders', r));
    },
    async capture(orderId, amountKopecks) {
      data(
        'capture',
        await call(
          'POST',
          `${orderPath(orderId)}/capture`,
          { orderAmount: formatSplitAmount(amountKopecks) },
          `capture-${orderId}`,
        ),
      );
    },
    async refund(orderId, refundKopecks, remainingKopecks) {
      data(
        'refund',
        await call(
          'POST',
          `${orderPath(orderId)}/refund`,
          { refundAmount: formatSplitAmount(refundKopecks), orderAmount: formatSplitAmount(remainingKopecks) },
          `refund-${orderId}-${refundKopecks}-${remainingKopecks}`,
        ),
      );
      options.log?.info?.({ orderId, refundKopecks }, 'Yandex Split: refunded');
    },
  };
}

/** A webhook's claims once its signature, expiry and merchant checked out. */
export interface SplitWebhook {
  merchantId: string;
  event: string;
  eventTime: string | null;
  orderId: string;
  paymentStatus: SplitPaymentStatus | null;
}

export type JwksSource = JWTVerifyGetKey;

/** Yandex's published keys (cached and refreshed by jose as keys rotate). */
export function remoteJwks(url = YANDEX_SPLIT_DEFAULT_JWKS_URL): JwksSource {
  return createRemoteJWKSet(new URL(url));
}

/**
 * The webhook body (a compact JWT): ES256 only, key by `kid` from the JWKS, `exp` checked (a
 * minute of clock skew), then merchantId must be ours. null for anything else.
 */
export async function verifySplitWebhook(
  token: string,
  { keys, merchantId }: { keys: JwksSource; merchantId: string },
): Promise<SplitWebhook | null> {
  const jwt = token.trim();
  if (!/^[\w-]+\.[\w-]+\.[\w-]+$/.test(jwt) || jwt.length > 20_000) return null;
  try {
    const { payload } = await jwtVerify(jwt, keys, {
      algorithms: ['ES256'],
      clockTolerance: 60,
      requiredClaims: ['exp'],
    });
    if (String(payload.merchantId ?? '') !== merchantId) return null;
    const order = (payload.order ?? {}) as { orderId?: unknown; paymentStatus?: unknown };
    if (typeof order.orderId !== 'string' || !order.orderId) return null;
    return {
      merchantId,
      event: String(payload.event ?? ''),
      eventTime: typeof payload.eventTime === 'string' ? payload.eventTime : null,
      orderId: order.orderId,
      paymentStatus: typeof order.paymentStatus === 'string' ? order.paymentStatus : null,
    };
  } catch {
    return null;
  }
}
