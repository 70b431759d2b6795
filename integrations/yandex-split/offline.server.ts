import crypto from 'node:crypto';
import { createLocalJWKSet, SignJWT, type JWK } from 'jose';
import {
  YandexSplitError,
  type SplitItem,
  type SplitPaymentStatus,
  type YandexSplitClient,
  type YandexSplitLogger,
} from './yandex-split';
import type { JwksSource } from './yandex-split.server';

// The offline stand-in for Yandex Split (INTEGRATIONS.md §6 "Stand-ins"): its page (served by
// the API) shows the schedule with 'Одобрить' and 'Отклонить'; the answer moves the order to
// CAPTURED or FAILED and posts the shop's webhook as Yandex would: an ES256 JWT signed with a
// key made at start, whose public half is this stand-in's JWKS, so the real verifier runs
// unchanged. Orders live in memory (an order left from before a restart is simply unknown).

export const OFFLINE_SPLIT_MERCHANT_ID = 'offline-merchant-0000';
export const OFFLINE_SPLIT_KID = 'vitrina-offline-split-1';

export interface OfflineSplitOrder {
  orderId: string;
  paymentStatus: SplitPaymentStatus;
  amountKopecks: number;
  items: SplitItem[];
  successUrl: string;
  errorUrl: string;
  refundedKopecks: number;
  /** Webhook bodies sent (tests replay them). */
  webhooks: string[];
}

export type WebhookDelivery = (body: string) => Promise<{ status: number }>;

export interface OfflineYandexSplit extends YandexSplitClient {
  readonly kind: 'offline';
  readonly merchantId: string;
  /** The stand-in's published keys (what `https://pay.yandex.ru/api/jwks` is for the real one). */
  readonly keys: JwksSource;
  jwks(): Promise<{ keys: JWK[] }>;
  connect(deliver: WebhookDelivery): void;
  decide(orderId: string, approve: boolean): Promise<{ redirect: string }>;
  order(orderId: string): OfflineSplitOrder | undefined;
  /** A webhook JWT as Yandex would send it (tests build variants). */
  sign(claims: Record<string, unknown>, options?: { expiresIn?: string | number }): Promise<string>;
  replay(orderId: string, index?: number): Promise<{ status: number }>;
}

export function createOfflineYandexSplit(options: {
  pagePath: string;
  merchantId?: string | undefined;
  log?: YandexSplitLogger | undefined;
}): OfflineYandexSplit {
  const merchantId = options.merchantId ?? OFFLINE_SPLIT_MERCHANT_ID;
  // Synchronous P-256 key (ES256): the stand-in exists as soon as the server is built.
  const { publicKey, privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const publicJwk: JWK = {
    ...(publicKey.export({ format: 'jwk' }) as JWK),
    kid: OFFLINE_SPLIT_KID,
    alg: 'ES256',
    use: 'sig',
  };
  const keys = createLocalJWKSet({ keys: [publicJwk] });
  const orders = new Map<string, OfflineSplitOrder>();
  let deliver: WebhookDelivery | null = null;
  const get = (id: string) => {
    const o = orders.get(id);
    if (!o) throw new YandexSplitError(`offline Yandex Split: no order ${id}`, 404);
    return o;
  };
  const sign = (claims: Record<string, unknown>, o: { expiresIn?: string | number } = {}) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: OFFLINE_SPLIT_KID })
      .setIssuedAt()
      .setExpirationTime(o.expiresIn ?? '5m')
      .sign(privateKey);

  async function webhook(o: OfflineSplitOrder): Promise<{ status: number }> {
    if (!deliver) throw new YandexSplitError('offline Yandex Split: no webhook handler connected');
    const body = await sign({
      merchantId,
      event: 'ORDER_STATUS_UPDATED',
      eventTime: new Date().toISOString(),
      order: { orderId: o.orderId, paymentStatus: o.paymentStatus },
    });
    o.webhooks.push(body);
    const answer = await deliver(body);
    if (answer.status !== 200)
      options.log?.warn(
        { orderId: o.orderId, status: answer.status },
        'offline Yandex Split: the shop did not answer 200',
      );
    return answer;
  }

  return {
    kind: 'offline',
    merchantId,
    keys,
    async jwks() {
      return { keys: [publicJwk] };
    },
    connect(d) {
      deliver = d;
    },
    async createOrder(request) {
      if (orders.has(request.orderId))
        throw new YandexSplitError(`offline Yandex Split: order ${request.orderId} exists`, 409);
      orders.set(request.orderId, {
        orderId: request.orderId,
        paymentStatus: 'PENDING',
        amountKopecks: request.amountKopecks,
        items: request.items,
        successUrl: request.successUrl,
        errorUrl: request.errorUrl,
        refundedKopecks: 0,
        webhooks: [],
      });
      return { paymentUrl: `${options.pagePath}?order=${encodeURIComponent(request.orderId)}` };
    },
    async getOrder(orderId) {
      const o = orders.get(orderId);
      return o
        ? {
            orderId,
            paymentStatus: o.paymentStatus,
            amountKopecks: o.amountKopecks - o.refundedKopecks,
            paymentUrl: null,
          }
        : null;
    },
    async capture(orderId) {
      const o = get(orderId);
      if (o.paymentStatus !== 'AUTHORIZED')
        throw new YandexSplitError(`offline Yandex Split: cannot capture ${o.paymentStatus}`, 400);
      o.paymentStatus = 'CAPTURED';
    },
    async refund(orderId, refundKopecks, remainingKopecks) {
      const o = get(orderId);
      if (!['CAPTURED', 'PARTIALLY_REFUNDED'].includes(o.paymentStatus))
        throw new YandexSplitError(`offline Yandex Split: cannot refund ${o.paymentStatus}`, 400);
      if (refundKopecks <= 0 || o.amountKopecks - o.refundedKopecks - refundKopecks !== remainingKopecks)
        throw new YandexSplitError('offline Yandex Split: refund amounts do not add up', 400);
      o.refundedKopecks += refundKopecks;
      o.paymentStatus = remainingKopecks === 0 ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
      options.log?.info?.({ orderId, refundKopecks }, 'offline Yandex Split: refunded');
    },
    async decide(orderId, approve) {
      const o = get(orderId);
      if (o.paymentStatus !== 'PENDING')
        return { redirect: o.paymentStatus === 'CAPTURED' ? o.successUrl : o.errorUrl };
      o.paymentStatus = approve ? 'CAPTURED' : 'FAILED';
      await webhook(o);
      return { redirect: approve ? o.successUrl : o.errorUrl };
    },
    order(orderId) {
      return orders.get(orderId);
    },
    sign,
    async replay(orderId, index) {
      const o = get(orderId);
      const body = o.webhooks[index ?? o.webhooks.length - 1];
      if (!body || !deliver) throw new YandexSplitError(`offline Yandex Split: nothing to replay for ${orderId}`);
      return deliver(body);
    },
  };
}
