import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDolyamiClient } from './dolyami.server';
import { DolyamiError, fromRoubles } from './dolyami';
import { createOfflineDolyami } from './offline.server';
import { dolyamiConfigSchema } from './index.server';

// The real Dolyami client against a local fake of its documented API (INTEGRATIONS.md §6):
// paths under /v1/, Basic auth, an X-Correlation-ID on every call, roubles on the wire. mTLS is
// left out here (plain HTTP to the fake); the agent takes the certificate files in production.

interface Seen {
  method: string;
  url: string;
  auth: string | undefined;
  correlation: string | undefined;
  body: unknown;
}
const seen: Seen[] = [];
const state = new Map<string, { status: string; amount: number }>();
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
        correlation: req.headers['x-correlation-id'] as string | undefined,
        body,
      });
      const send = (status: number, json: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
      if (req.headers.authorization !== `Basic ${Buffer.from('shop:secret').toString('base64')}`)
        return send(401, { message: 'Unauthorized' });
      const m = /^\/v1\/orders\/([^/]+)\/(info|commit|cancel|refund)$/.exec(req.url ?? '');
      if (req.url === '/v1/orders/create') {
        const order = (body as { order: { id: string; amount: number } }).order;
        state.set(order.id, { status: 'new', amount: order.amount });
        return send(200, {
          status: 'new',
          amount: order.amount,
          residual_amount: order.amount,
          link: `https://dolyame.example/${order.id}`,
        });
      }
      const o = m ? state.get(decodeURIComponent(m[1] ?? '')) : undefined;
      if (!m || !o) return send(404, { message: 'Order not found' });
      if (m[2] === 'info')
        return send(200, {
          id: m[1],
          status: o.status,
          amount: o.amount,
          residual_amount: 0,
          payment_schedule: [{ amount: o.amount / 4, payment_date: '2026-11-24', status: 'paid' }],
        });
      if (m[2] === 'commit') {
        if (o.status !== 'wait_for_commit') return send(400, { message: 'Wrong status' });
        o.status = 'committed';
        return send(200, { status: 'committed', amount: o.amount, residual_amount: o.amount * 0.75 });
      }
      if (m[2] === 'cancel') return send(200, { status: 'canceled', amount: o.amount });
      return send(200, { refund_id: 'r-1', amount: (body as { amount: number }).amount });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const client = () => createDolyamiClient({ login: 'shop', password: 'secret', baseUrl });

describe('createDolyamiClient', () => {
  it('creates an order (roubles on the wire, client info, URLs) and returns the link', async () => {
    const order = await client().create({
      id: '41-1',
      amountKopecks: 1_234_550,
      items: [
        { name: 'Платье', quantity: 1, priceKopecks: 1_164_550 },
        { name: 'Доставка', quantity: 1, priceKopecks: 70_000 },
      ],
      client: { firstName: 'Анна', lastName: 'Иванова', phone: '79161234567', email: 'anna@example.com' },
      notificationUrl: 'https://shop.example/backend/api/dolyami/callback/',
      successUrl: 'https://shop.example/ok',
      failUrl: 'https://shop.example/bad',
    });
    expect(order.link).toBe('https://dolyame.example/41-1');
    expect(order.amountKopecks).toBe(1_234_550);
    const req = seen.at(-1);
    expect(req?.correlation).toMatch(/^[0-9a-f-]{36}$/);
    expect(req?.body).toMatchObject({
      order: {
        id: '41-1',
        amount: 12_345.5,
        prepaid_amount: 0,
        items: [
          { name: 'Платье', quantity: 1, price: 11_645.5 },
          { name: 'Доставка', price: 700 },
        ],
      },
      client_info: { first_name: 'Анна', last_name: 'Иванова', phone: '+79161234567', email: 'anna@example.com' },
      notification_url: 'https://shop.example/backend/api/dolyami/callback/',
    });
  });

  it('reads info, commits, cancels and refunds; an unknown order is null', async () => {
    const c = client();
    expect((await c.info('41-1'))?.status).toBe('new');
    expect(await c.info('nope-1')).toBeNull();
    state.set('41-1', { status: 'wait_for_commit', amount: 12_345.5 });
    const committed = await c.commit('41-1', 1_234_550, []);
    expect(committed.status).toBe('committed');
    expect(seen.at(-1)?.url).toBe('/v1/orders/41-1/commit');
    await expect(c.commit('41-1', 1_234_550, [])).rejects.toThrow(DolyamiError);
    await c.cancel('41-1');
    const refund = await c.refund('41-1', 500_000, []);
    expect(refund.refundId).toBe('r-1');
    // The same refund again carries the same correlation id (idempotent where Dolyami honours it).
    const first = seen.at(-1)?.correlation;
    await c.refund('41-1', 500_000, []);
    expect(seen.at(-1)?.correlation).toBe(first);
    expect(seen.at(-1)?.body).toEqual({ amount: 5000, returned_items: [] });
  });

  it('a wrong password or an unreachable host is a DolyamiError', async () => {
    await expect(createDolyamiClient({ login: 'shop', password: 'wrong', baseUrl }).info('41-1')).rejects.toThrow(
      /HTTP 401/,
    );
    await expect(
      createDolyamiClient({
        login: 'shop',
        password: 'secret',
        baseUrl: 'http://127.0.0.1:1/v1/',
        timeoutMs: 500,
      }).info('x'),
    ).rejects.toThrow(DolyamiError);
  });
});

describe('amounts', () => {
  it('reads roubles as whole kopecks only', () => {
    expect(fromRoubles(12_345.5)).toBe(1_234_550);
    expect(fromRoubles('0.1')).toBe(10);
    expect(fromRoubles(1.005)).toBeNull();
    expect(fromRoubles(-1)).toBeNull();
  });
});

describe('offline Dolyami', () => {
  it('approves to wait_for_commit with a callback, then committed and completed once the shop commits', async () => {
    const stand = createOfflineDolyami({ pagePath: '/backend/api/dolyami/offline/pay/' });
    const callbacks: string[] = [];
    stand.connect(async (_url, body) => {
      const { id, status } = JSON.parse(body) as { id: string; status: string };
      callbacks.push(status);
      if (status === 'wait_for_commit') await stand.commit(id, 100_000, []);
      return { status: 200 };
    });
    const created = await stand.create({
      id: '7-1',
      amountKopecks: 100_000,
      items: [],
      client: { firstName: '', lastName: '', phone: '', email: '' },
      notificationUrl: '',
      successUrl: '/ok',
      failUrl: '/bad',
    });
    expect(created.link).toBe('/backend/api/dolyami/offline/pay/?id=7-1');
    expect(created.schedule.map((s) => s.amountKopecks)).toEqual([25_000, 25_000, 25_000, 25_000]);
    expect(await stand.decide('7-1', true)).toEqual({ redirect: '/ok' });
    expect(callbacks).toEqual(['wait_for_commit', 'committed', 'completed']);
    await expect(stand.cancel('7-1')).rejects.toThrow(DolyamiError);
    await stand.refund('7-1', 100_000, []);
    await expect(stand.refund('7-1', 1, [])).rejects.toThrow(/above/);
  });

  it('a decline is rejected, with a callback, and sends the shopper to the fail URL', async () => {
    const stand = createOfflineDolyami({ pagePath: '/p/' });
    const callbacks: string[] = [];
    stand.connect(async (_url, body) => {
      callbacks.push((JSON.parse(body) as { status: string }).status);
      return { status: 200 };
    });
    await stand.create({
      id: '8-1',
      amountKopecks: 60_000,
      items: [],
      client: { firstName: '', lastName: '', phone: '', email: '' },
      notificationUrl: '',
      successUrl: '/ok',
      failUrl: '/bad',
    });
    expect(await stand.decide('8-1', false)).toEqual({ redirect: '/bad' });
    expect(callbacks).toEqual(['rejected']);
    expect((await stand.info('8-1'))?.status).toBe('rejected');
  });
});

describe('configuration', () => {
  it('is offline by default; real needs login, password and the certificate files', () => {
    expect(dolyamiConfigSchema.parse({}).DOLYAMI_PROVIDER).toBe('offline');
    const bad = dolyamiConfigSchema.safeParse({ DOLYAMI_PROVIDER: 'real', DOLYAMI_LOGIN: 'shop' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.path[0]).sort()).toEqual([
      'DOLYAMI_CERT_PATH',
      'DOLYAMI_KEY_PATH',
      'DOLYAMI_PASSWORD',
    ]);
  });
});
