import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '~/shared/api-client';
import { createInProcessFetch } from './in-process-fetch.server';

describe('in-process fetch', () => {
  let app: FastifyInstance;
  const calls: string[] = [];
  let price = 100;

  beforeEach(async () => {
    calls.length = 0;
    price = 100;
    app = Fastify();
    app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    app.get('/api/item/', async (req, reply) => {
      calls.push(req.url);
      return reply.header('cache-control', 'public, max-age=60').send({ price, ip: req.ip });
    });
    app.get('/api/private/', async (req, reply) => {
      calls.push(req.url);
      return reply.header('cache-control', 'private, no-store').send({ price });
    });
    app.get('/api/cookie/', async (req, reply) => {
      calls.push(req.url);
      return reply.header('cache-control', 'public, max-age=60').header('set-cookie', 'a=1').send({ price });
    });
    app.get('/api/missing/', async (req, reply) => {
      calls.push(req.url);
      return reply.code(404).header('cache-control', 'public, max-age=60').send({ error: 'нет' });
    });
    app.get('/backend/catalog/', async (req, reply) => {
      calls.push(req.url);
      return reply.header('cache-control', 'public, max-age=60').send({ SECTIONS: [{ NAME: 'Женщинам' }] });
    });
    app.post('/api/item/', async (req) => {
      calls.push(`POST ${req.url} ${String(req.body)}`);
      return { ok: true };
    });
    await app.ready();
  });
  afterEach(() => app.close());

  it('runs every request through the API without a version', async () => {
    const { fetch: f } = createInProcessFetch(app);
    for (let i = 0; i < 2; i++)
      expect(await (await f('http://in-process/api/item/')).json()).toMatchObject({ price: 100 });
    expect(calls).toHaveLength(2);
    const posted = await f('http://in-process/api/item/', {
      method: 'POST',
      body: 'x=1',
      headers: { 'content-type': 'text/plain' },
    });
    expect(await posted.json()).toEqual({ ok: true });
    expect(calls[2]).toBe('POST /api/item/ x=1');
  });

  it('reuses a public answer while the version stands and within its time to live', async () => {
    let seq = 1;
    let clock = 0;
    const { fetch: f, keptValue } = createInProcessFetch(app, {
      version: async () => ({ seq }),
      ttlMs: 5_000,
      now: () => clock,
    });
    const read = async (url = 'http://in-process/api/item/?a=1') =>
      (await (await f(url, { headers: { 'x-real-ip': '10.0.0.1' } })).json()) as { price: number; ip: string };

    expect(await keptValue('http://in-process/api/item/?a=1')).toBeUndefined();
    expect(await read()).toEqual({ price: 100, ip: '10.0.0.1' });
    price = 200;
    clock = 4_999;
    expect((await read()).price).toBe(100);
    // The ApiClient's lookup sees the same kept answer, parsed, and asks the API nothing.
    const value = await keptValue('http://in-process/api/item/?a=1');
    expect(value).toEqual({ price: 100, ip: '10.0.0.1' });
    // Parsed once and frozen: the next caller gets the same objects, which no caller can change.
    expect(await keptValue('http://in-process/api/item/?a=1')).toBe(value);
    expect(Object.isFrozen(value)).toBe(true);
    expect(calls).toEqual(['/api/item/?a=1']);
    // Another query is another answer.
    expect((await read('http://in-process/api/item/?a=2')).price).toBe(200);

    // A new data version: asked again at once.
    seq = 2;
    expect(await keptValue('http://in-process/api/item/?a=1')).toBeUndefined();
    expect((await read()).price).toBe(200);
    price = 300;
    // Past the time to live, even with the same version (a change no version announces).
    clock = 4_999 + 5_000;
    expect(await keptValue('http://in-process/api/item/?a=1')).toBeUndefined();
    expect((await read()).price).toBe(300);
    expect(calls).toHaveLength(4);
  });

  it('never keeps a private, personal, failed or non-GET answer', async () => {
    const { fetch: f, keptValue } = createInProcessFetch(app, { version: async () => ({ seq: 1 }) });
    for (let i = 0; i < 2; i++) {
      await f('http://in-process/api/private/');
      await f('http://in-process/api/cookie/');
      expect((await f('http://in-process/api/missing/')).status).toBe(404);
      // A request that carries a cookie may be answered for that shopper alone.
      await f('http://in-process/api/item/?c', { headers: { cookie: 'token=x' } });
      await f('http://in-process/api/item/?c', {
        method: 'POST',
        body: 'y',
        headers: { 'content-type': 'text/plain' },
      });
    }
    expect(calls.filter((c) => c.startsWith('/api/private/'))).toHaveLength(2);
    expect(calls.filter((c) => c.startsWith('/api/cookie/'))).toHaveLength(2);
    expect(calls.filter((c) => c.startsWith('/api/missing/'))).toHaveLength(2);
    expect(calls.filter((c) => c === '/api/item/?c')).toHaveLength(2);
    expect(calls.filter((c) => c.startsWith('POST'))).toHaveLength(2);
    // The kept Set-Cookie never reaches another request: the answer was not kept at all.
    expect((await f('http://in-process/api/cookie/')).headers.get('set-cookie')).toBe('a=1');
    for (const path of ['/api/private/', '/api/cookie/', '/api/missing/', '/api/item/?c'])
      expect(await keptValue(`http://in-process${path}`)).toBeUndefined();
  });

  it('gives every reader its own body of a kept answer', async () => {
    const { fetch: f } = createInProcessFetch(app, { version: async () => ({ seq: 1 }) });
    const [a, b] = await Promise.all([f('http://in-process/api/item/'), f('http://in-process/api/item/')]);
    const c = await f('http://in-process/api/item/');
    expect(await a.json()).toMatchObject({ price: 100 });
    expect(await b.json()).toMatchObject({ price: 100 });
    expect(await c.json()).toMatchObject({ price: 100 });
    expect(c.headers.get('cache-control')).toBe('public, max-age=60');
  });

  it('answers an ApiClient from kept answers with shared, frozen objects', async () => {
    const { fetch: f, keptValue } = createInProcessFetch(app, { version: async () => ({ seq: 1 }) });
    let fetched = 0;
    const counted: typeof fetch = (input, init) => {
      fetched++;
      return f(input, init);
    };
    const api = new ApiClient({ baseUrl: 'http://in-process/backend', fetch: counted, keptValue });
    const first = await api.getMenu();
    const second = await api.getMenu();
    expect(second).toEqual({ SECTIONS: [{ NAME: 'Женщинам' }] });
    // The first call fetched and parsed its own answer; later ones share the kept, frozen value.
    expect(second).not.toBe(first);
    expect(await api.getMenu()).toBe(second);
    expect(Object.isFrozen(second.SECTIONS[0])).toBe(true);
    expect(() => {
      (second.SECTIONS as unknown[]).push({});
    }).toThrow(TypeError);
    // The later calls were answered from the kept answer: no Request, no Response.
    expect(fetched).toBe(1);
    expect(calls).toEqual(['/backend/catalog/?iscollection=no']);
  });
});
