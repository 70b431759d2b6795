import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCompress from '@fastify/compress';
import { afterEach, describe, expect, it } from 'vitest';
import {
  bypassReason,
  chooseEncoding,
  createPageCache,
  isStorable,
  ownSizedBytes,
  type PageCache,
} from './page-cache.server';

describe('who shares a cached page', () => {
  const req = (url: string, headers: Record<string, string> = {}, method = 'GET') => ({ method, url, headers });
  it('bypasses any session cookie, forged or not, and private addresses', () => {
    expect(bypassReason(req('/'))).toBeNull();
    expect(bypassReason(req('/', { cookie: 'cart=1:2; views=5; logged_in=1' }))).toBeNull();
    expect(bypassReason(req('/', { cookie: 'cart=1:2; token=forged' }))).toBe('session');
    expect(bypassReason(req('/', { cookie: 'token=' }))).toBe('session');
    for (const p of ['/basket/', '/personal/orders/', '/auth/?next=/', '/wishlist/', '/logout/', '/BASKET/'])
      expect(bypassReason(req(p))).toBe('private');
    expect(bypassReason(req('/', {}, 'POST'))).toBe('method');
  });

  it('chooses the encoding compression would', () => {
    expect(chooseEncoding(undefined)).toBe('identity');
    expect(chooseEncoding('gzip, deflate, br')).toBe('br');
    expect(chooseEncoding('gzip, br;q=0.5')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip')).toBe('gzip');
    expect(chooseEncoding('deflate')).toBe('identity');
    expect(chooseEncoding('*')).toBe('gzip');
    expect(chooseEncoding('br', true)).toBe('identity');
  });

  it('keeps a document that is a view of a larger buffer in a buffer of its own size', () => {
    const collector = Buffer.alloc(64 * 1024, 'я');
    const view = collector.subarray(2, 5002);
    const kept = ownSizedBytes(view);
    expect(kept.equals(view)).toBe(true);
    expect(kept.buffer.byteLength).toBe(5000);
    // Already its own size: kept as it is, not copied.
    const own = Buffer.copyBytesFrom(Buffer.from('<p>свой</p>'.repeat(1000)));
    expect(ownSizedBytes(own)).toBe(own);
  });

  it('stores only public 200 answers without cookies or foreign Vary', () => {
    const pub = { 'cache-control': 'public, max-age=60' };
    expect(isStorable(200, pub)).toBe(true);
    expect(isStorable(404, pub)).toBe(false);
    expect(isStorable(200, { 'cache-control': 'private, no-store' })).toBe(false);
    expect(isStorable(200, {})).toBe(false);
    expect(isStorable(200, { ...pub, 'set-cookie': ['a=1'] })).toBe(false);
    expect(isStorable(200, { ...pub, vary: 'Cookie' })).toBe(false);
    expect(isStorable(200, { ...pub, vary: 'accept-encoding' })).toBe(true);
  });
});

describe('createPageCache in a Fastify server', () => {
  let app: FastifyInstance | null = null;
  afterEach(async () => {
    await app?.close();
    app = null;
  });

  async function shop(
    opts: {
      version?: () => string;
      ttlMs?: number;
      delayMs?: number;
      versionCheckMs?: number;
      readVersion?: () => Promise<string>;
    } = {},
  ) {
    let clock = 1_000_000;
    const renders = { count: 0 };
    const cache: PageCache = createPageCache({
      maxBytes: 1024 * 1024,
      ttlMs: opts.ttlMs ?? 60_000,
      versionCheckMs: opts.versionCheckMs ?? 0,
      readVersion: opts.readVersion ?? (async () => (opts.version ? opts.version() : 'v1')),
      now: () => clock,
    });
    const server = Fastify();
    await server.register(fastifyCompress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
    await server.register(async (pages) => {
      pages.addHook('onRequest', cache.onRequest);
      pages.addHook('onSend', cache.onSend);
      pages.addHook('onResponse', cache.onDone);
      pages.route({
        method: ['GET', 'HEAD', 'POST'],
        url: '/*',
        handler: async (req, reply) => {
          renders.count++;
          if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
          const url = req.url;
          reply.type('text/html; charset=utf-8');
          if (url.startsWith('/cookie/')) reply.header('set-cookie', 'a=1; Path=/');
          reply.header('cache-control', url.startsWith('/private/') ? 'private, no-store' : 'public, max-age=60');
          return reply.send(Readable.from([`<html>${url} `, 'x'.repeat(4000), `</html>`]));
        },
      });
    });
    await server.ready();
    app = server;
    return { server, cache, renders, tick: (ms: number) => (clock += ms) };
  }

  it('serves a miss, then the stored bytes per encoding', async () => {
    const { server, renders } = await shop();
    const first = await server.inject({ url: '/a/', headers: { 'accept-encoding': 'br' } });
    expect(first.headers['x-cache']).toBe('MISS');
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers.vary).toMatch(/accept-encoding/i);
    const second = await server.inject({ url: '/a/', headers: { 'accept-encoding': 'br' } });
    expect(second.headers['x-cache']).toBe('HIT');
    expect(second.headers['content-encoding']).toBe('br');
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(zlib.brotliDecompressSync(second.rawPayload).toString()).toContain('<html>/a/ ');
    expect(renders.count).toBe(1);
    // Another encoding is another entry.
    const plain = await server.inject({ url: '/a/' });
    expect(plain.headers['x-cache']).toBe('MISS');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect((await server.inject({ url: '/a/' })).payload).toContain('<html>/a/ ');
    const gz = await server.inject({ url: '/a/', headers: { 'accept-encoding': 'gzip' } });
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toContain('<html>/a/ ');
    expect(renders.count).toBe(3);
    // Conditional request: 304 from memory.
    const again = await server.inject({
      url: '/a/',
      headers: { 'accept-encoding': 'br', 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    // HEAD shares the GET entry.
    const head = await server.inject({ method: 'HEAD', url: '/a/', headers: { 'accept-encoding': 'br' } });
    expect(head.headers['x-cache']).toBe('HIT');
    expect(renders.count).toBe(3);
  });

  it('never stores private answers or answers with cookies, and bypasses sessions', async () => {
    const { server, renders } = await shop();
    for (const url of ['/private/x/', '/cookie/x/']) {
      await server.inject({ url });
      const res = await server.inject({ url });
      expect(res.headers['x-cache']).toBe('MISS');
    }
    expect(renders.count).toBe(4);
    await server.inject({ url: '/b/' });
    const hit = await server.inject({ url: '/b/' });
    expect(hit.headers['x-cache']).toBe('HIT');
    expect(hit.headers['set-cookie']).toBeUndefined();
    const session = await server.inject({ url: '/b/', headers: { cookie: 'token=abc' } });
    expect(session.headers['x-cache']).toBe('BYPASS');
    expect(renders.count).toBe(6);
  });

  it('renders once for a burst of misses', async () => {
    const { server, renders, cache } = await shop({ delayMs: 50 });
    const all = await Promise.all(Array.from({ length: 20 }, () => server.inject({ url: '/burst/' })));
    expect(renders.count).toBe(1);
    expect(all.filter((r) => r.headers['x-cache'] === 'MISS')).toHaveLength(1);
    expect(new Set(all.map((r) => r.payload)).size).toBe(1);
    expect(cache.stats().coalesced).toBe(19);
  });

  it('forgets pages when the version changes or the time to live passes', async () => {
    let v = 'v1';
    const { server, renders, tick } = await shop({ version: () => v, ttlMs: 10_000 });
    await server.inject({ url: '/c/' });
    expect((await server.inject({ url: '/c/' })).headers['x-cache']).toBe('HIT');
    v = 'v2';
    expect((await server.inject({ url: '/c/' })).headers['x-cache']).toBe('MISS');
    expect((await server.inject({ url: '/c/' })).headers['x-cache']).toBe('HIT');
    tick(10_001);
    expect((await server.inject({ url: '/c/' })).headers['x-cache']).toBe('MISS');
    expect(renders.count).toBe(3);
  });

  it('reads the version again in the background before it is due, and waits only once it is overdue', async () => {
    let reads = 0;
    let release: (() => void) | null = null;
    let v = 'v1';
    const readVersion = () => {
      reads++;
      // The first read answers at once; later ones wait until released.
      if (reads === 1) return Promise.resolve(v);
      return new Promise<string>((resolve) => (release = () => resolve(v)));
    };
    const { server, tick } = await shop({ versionCheckMs: 1000, readVersion });
    await server.inject({ url: '/d/' });
    expect((await server.inject({ url: '/d/' })).headers['x-cache']).toBe('HIT');
    tick(800);
    v = 'v2';
    // Three quarters into the interval: a read starts, the request does not wait for it.
    expect((await server.inject({ url: '/d/' })).headers['x-cache']).toBe('HIT');
    expect(reads).toBe(2);
    expect((await server.inject({ url: '/d/' })).headers['x-cache']).toBe('HIT');
    expect(reads).toBe(2);
    release!();
    await new Promise((r) => setImmediate(r));
    // The new version came in: the page is rendered again.
    expect((await server.inject({ url: '/d/' })).headers['x-cache']).toBe('MISS');
    // Past the interval with no read under way, a request waits for a fresh one.
    tick(1000);
    const overdue = server.inject({ url: '/d/' });
    await new Promise((r) => setTimeout(r, 20));
    expect(reads).toBe(3);
    v = 'v3';
    release!();
    expect((await overdue).headers['x-cache']).toBe('MISS');
  });
});
