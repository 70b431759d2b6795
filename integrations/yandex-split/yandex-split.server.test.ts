import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createYandexSplitClient, verifySplitWebhook } from './yandex-split.server';
import { parseSplitAmount, YandexSplitError } from './yandex-split';
import { createOfflineYandexSplit, OFFLINE_SPLIT_KID, OFFLINE_SPLIT_MERCHANT_ID } from './offline.server';
import { yandexSplitConfigSchema } from './index.server';

// The real Yandex Split client against a local fake of Yandex Pay's merchant API v1
// (INTEGRATIONS.md §6), and the webhook verifier against the offline stand-in's ES256 keys.

const seen: { method: string; url: string; auth: string | undefined; requestId: string | undefined; body: unknown }[] =
  [];
const orders = new Map<string, { paymentStatus: string; amount: string }>();
let server: http.Server;
let baseUrl = '';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        auth: req.headers.authorization,
        requestId: req.headers['x-request-id'] as string | undefined,
        body,
      });
      const send = (status: number, json: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
      if (req.headers.authorization !== 'Api-Key key-1')
        return send(401, { status: 'fail', reasonCode: 'AUTHENTICATION_ERROR' });
      if (req.method === 'POST' && req.url === '/api/merchant/v1/orders') {
        const b = body as { orderId: string; cart: { total: { amount: string } } };
        orders.set(b.orderId, { paymentStatus: 'PENDING', amount: b.cart.total.amount });
        return send(200, { status: 'success', data: { paymentUrl: `https://split.example/${b.orderId}` } });
      }
      const m = /^\/api\/merchant\/v1\/orders\/([^/]+)(?:\/(capture|refund))?$/.exec(req.url ?? '');
      const o = m ? orders.get(decodeURIComponent(m[1] ?? '')) : undefined;
      if (!m || !o) return send(404, { status: 'fail', reasonCode: 'ORDER_NOT_FOUND' });
      if (!m[2])
        return send(200, {
          status: 'success',
          data: { order: { orderId: m[1], paymentStatus: o.paymentStatus, orderAmount: o.amount } },
        });
      if (m[2] === 'capture') o.paymentStatus = 'CAPTURED';
      else o.paymentStatus = 'REFUNDED';
      return send(200, { status: 'success', data: {} });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/merchant/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('createYandexSplitClient', () => {
  it('creates an order with the SPLIT method and decimal-string amounts, and reads, captures and refunds it', async () => {
    const c = createYandexSplitClient({ apiKey: 'key-1', baseUrl });
    const created = await c.createOrder({
      orderId: '52-1',
      amountKopecks: 1_234_550,
      items: [{ productId: '1', title: 'Платье', quantity: 2, totalKopecks: 1_234_550 }],
      successUrl: 'https://shop.example/ok',
      errorUrl: 'https://shop.example/bad',
    });
    expect(created.paymentUrl).toBe('https://split.example/52-1');
    expect(seen.at(-1)?.body).toEqual({
      orderId: '52-1',
      currencyCode: 'RUB',
      availablePaymentMethods: ['SPLIT'],
      cart: {
        items: [{ productId: '1', title: 'Платье', quantity: { count: '2' }, total: '12345.50' }],
        total: { amount: '12345.50' },
      },
      redirectUrls: { onSuccess: 'https://shop.example/ok', onError: 'https://shop.example/bad' },
    });
    expect(seen.at(-1)?.requestId).toBe('create-52-1');
    expect(await c.getOrder('52-1')).toEqual({
      orderId: '52-1',
      paymentStatus: 'PENDING',
      amountKopecks: 1_234_550,
      paymentUrl: null,
    });
    expect(await c.getOrder('nope')).toBeNull();
    await c.capture('52-1', 1_234_550);
    expect((await c.getOrder('52-1'))?.paymentStatus).toBe('CAPTURED');
    await c.refund('52-1', 1_234_550, 0);
    expect(seen.at(-1)?.body).toEqual({ refundAmount: '12345.50', orderAmount: '0.00' });
  });

  it('a wrong key is a YandexSplitError', async () => {
    await expect(createYandexSplitClient({ apiKey: 'wrong', baseUrl }).getOrder('52-1')).rejects.toThrow(
      YandexSplitError,
    );
  });

  it('parses amounts', () => {
    expect(parseSplitAmount('12345.5')).toBe(1_234_550);
    expect(parseSplitAmount('1.234')).toBeNull();
  });
});

describe('verifySplitWebhook', () => {
  const stand = createOfflineYandexSplit({ pagePath: '/p/' });
  const claims = {
    merchantId: OFFLINE_SPLIT_MERCHANT_ID,
    event: 'ORDER_STATUS_UPDATED',
    eventTime: '2026-11-24T12:00:00Z',
    order: { orderId: '52-1', paymentStatus: 'CAPTURED' },
  };
  const opts = { keys: stand.keys, merchantId: OFFLINE_SPLIT_MERCHANT_ID };

  it('accepts a token signed by the JWKS key for our merchant', async () => {
    expect(await verifySplitWebhook(await stand.sign(claims), opts)).toEqual({
      merchantId: OFFLINE_SPLIT_MERCHANT_ID,
      event: 'ORDER_STATUS_UPDATED',
      eventTime: '2026-11-24T12:00:00Z',
      orderId: '52-1',
      paymentStatus: 'CAPTURED',
    });
  });

  it('refuses another key, another merchant, an expired token, alg none, HS256 and junk', async () => {
    const { privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const foreign = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: OFFLINE_SPLIT_KID })
      .setExpirationTime('5m')
      .sign(privateKey);
    expect(await verifySplitWebhook(foreign, opts)).toBeNull();
    expect(await verifySplitWebhook(await stand.sign({ ...claims, merchantId: 'someone-else' }), opts)).toBeNull();
    expect(
      await verifySplitWebhook(await stand.sign(claims, { expiresIn: Math.floor(Date.now() / 1000) - 120 }), opts),
    ).toBeNull();
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;
    expect(await verifySplitWebhook(none, opts)).toBeNull();
    const hs = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', kid: OFFLINE_SPLIT_KID })
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('x'.repeat(32)));
    expect(await verifySplitWebhook(hs, opts)).toBeNull();
    expect(await verifySplitWebhook('junk', opts)).toBeNull();
  });

  it('the stand-in publishes its key as a JWKS with the kid', async () => {
    const jwks = await stand.jwks();
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', kid: OFFLINE_SPLIT_KID, alg: 'ES256' });
    expect(jwks.keys[0]).not.toHaveProperty('d');
  });
});

describe('configuration', () => {
  it('is offline by default; real needs the API key and the merchant id', () => {
    expect(yandexSplitConfigSchema.parse({}).YANDEX_SPLIT_PROVIDER).toBe('offline');
    const bad = yandexSplitConfigSchema.safeParse({ YANDEX_SPLIT_PROVIDER: 'real' });
    expect(bad.error?.issues.map((i) => i.path[0]).sort()).toEqual([
      'YANDEX_SPLIT_API_KEY',
      'YANDEX_SPLIT_MERCHANT_ID',
    ]);
  });
});
