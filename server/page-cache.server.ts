import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { COOKIE, readCookie } from '~/shared/cookies';
import { ByteLru } from '~/shared/byte-lru';

// The guest page cache (issue #13, README "Guest page cache"): server-rendered pages that are
// the same for every guest are kept in memory, already compressed for the encoding the request
// accepts, and sent again without rendering. Only requests without a session cookie take part;
// only 200 answers marked `Cache-Control: public` without Set-Cookie are stored. The shell's
// personal bits (login state, basket and wishlist counts, views) are read from cookies in the
// browser after hydration (app/lib/shopper-state.ts, app/lib/favourites.ts), so a guest's basket
// cookies do not change the HTML and do not stop the cache.

declare module 'fastify' {
  interface FastifyInstance {
    /** The guest page cache of the storefront's pages; null when off or without a storefront. */
    pageCache: PageCache | null;
  }
}

export type PageEncoding = 'br' | 'gzip' | 'identity';

/** Pages that are personal by address: never looked up, never stored (whatever they answer). */
const PRIVATE_PREFIXES = ['/basket/', '/personal/', '/auth/', '/wishlist/', '/logout/'];

/** Headers of a rendered answer that are not the page's own (set per response, or by the cache). */
const UNSTORED_HEADERS = new Set([
  'set-cookie',
  'content-length',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'date',
  'age',
  'etag',
  'x-cache',
]);

const brotli = promisify<zlib.InputType, zlib.BrotliOptions, Buffer>(zlib.brotliCompress);
const gzip = promisify<zlib.InputType, zlib.ZlibOptions, Buffer>(zlib.gzip);

// ---------------------------------------------------------------------------------------------
// Who may share a cached page, and under which key.

/**
 * The encoding @fastify/compress would choose for this request (br preferred over gzip at equal
 * weight, `*` and x-gzip as gzip): the cache stores bytes per encoding.
 */
export function chooseEncoding(acceptEncoding: string | undefined, noCompression = false): PageEncoding {
  if (!acceptEncoding || noCompression) return 'identity';
  let best: PageEncoding = 'identity';
  let bestQ = 0;
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [rawName = '', ...params] = part.split(';').map((s) => s.trim());
    const name = rawName === '*' || rawName === 'x-gzip' ? 'gzip' : rawName;
    if (name !== 'br' && name !== 'gzip') continue;
    let q = 1;
    for (const p of params) {
      const m = /^q=([0-9.]+)$/.exec(p);
      if (m) q = Number(m[1]);
    }
    if (!(q > 0)) continue;
    if (q > bestQ || (q === bestQ && name === 'br')) {
      best = name;
      bestQ = q;
    }
  }
  return best;
}

/** Why a request may not share a cached page, or null when it is a guest's page request. */
export function bypassReason(req: {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
}): string | null {
  if (req.method !== 'GET' && req.method !== 'HEAD') return 'method';
  const cookie = req.headers.cookie;
  // Any session cookie, valid or forged, means "not a guest": the cache never answers it.
  if (readCookie(Array.isArray(cookie) ? cookie.join('; ') : cookie, COOKIE.token) !== null) return 'session';
  if (req.headers.authorization !== undefined) return 'authorization';
  const q = req.url.indexOf('?');
  const pathname = (q === -1 ? req.url : req.url.slice(0, q)).toLowerCase();
  if (PRIVATE_PREFIXES.some((p) => pathname === p.slice(0, -1) || pathname.startsWith(p))) return 'private';
  return null;
}

/** Whether a rendered answer may be kept and shared among guests. */
export function isStorable(status: number, headers: Record<string, unknown>): boolean {
  if (status !== 200) return false;
  if (headers['set-cookie'] !== undefined) return false;
  // Already encoded by someone else: the cache would not know which variant it holds.
  const encoding = headers['content-encoding'];
  if (encoding !== undefined && encoding !== 'identity') return false;
  const cacheControl = String(headers['cache-control'] ?? '').toLowerCase();
  if (!/\bpublic\b/.test(cacheControl) || /\b(private|no-store|no-cache)\b/.test(cacheControl)) return false;
  // A variant by anything but the encoding (cookies, language) is not in the key.
  const vary = headers.vary;
  if (vary !== undefined) {
    const names = (Array.isArray(vary) ? vary.join(',') : String(vary)).split(',').map((v) => v.trim().toLowerCase());
    if (names.some((v) => v !== '' && v !== 'accept-encoding')) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Invalidation: one fingerprint of everything a guest page shows that can change while the
// process runs, read at most once per interval so every process on one database sees a change
// within that interval.

// readPageVersion lives with the memos that share its fingerprint (api/meta/data-version.server.ts).
export { readPageVersion } from '~/api/meta/data-version.server';

// ---------------------------------------------------------------------------------------------

export interface PageCacheOptions {
  maxBytes: number;
  ttlMs: number;
  /** Reads the invalidation fingerprint (readPageVersion). */
  readVersion: () => Promise<string>;
  /** How old a read fingerprint may be before the next request reads it again. */
  versionCheckMs?: number;
  /** How long a request waits for another request's render of the same page. */
  coalesceWaitMs?: number;
  brotliQuality?: number;
  now?: () => number;
  log?: { warn(obj: unknown, msg: string): void };
}

export interface PageCacheStats {
  hits: number;
  misses: number;
  bypasses: number;
  /** Page answers rendered by React (misses, bypasses, and answers nobody stores). */
  renders: number;
  /** Hits served from another request's render that was still in progress. */
  coalesced: number;
  stored: number;
  /** Times a changed fingerprint emptied the cache. */
  invalidations: number;
  entries: number;
  bytes: number;
}

interface Entry {
  status: number;
  headers: Array<[string, string | string[]]>;
  body: Buffer;
  etag: string;
  storedAt: number;
  bytes: number;
  version: string;
}

interface Leader {
  key: string;
  encoding: PageEncoding;
  version: string;
  resolve(entry: Entry | null): void;
}

export interface PageCache {
  /** Fastify onRequest hook of the page routes: answers hits, marks the render of a miss. */
  onRequest(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined>;
  /** Fastify onSend hook of the page routes: stores what a miss rendered (compressed). */
  onSend(req: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown>;
  /** Fastify onResponse / onRequestAbort hook: a miss that ended without storing frees its waiters. */
  onDone(req: FastifyRequest): Promise<void>;
  stats(): PageCacheStats;
  clear(): void;
}

export function createPageCache(options: PageCacheOptions): PageCache {
  const now = options.now ?? Date.now;
  const versionCheckMs = options.versionCheckMs ?? 1000;
  const coalesceWaitMs = options.coalesceWaitMs ?? 10_000;
  const brotliQuality = options.brotliQuality ?? 5;
  const lru = new ByteLru<Entry>(options.maxBytes);
  const inflight = new Map<string, Promise<Entry | null>>();
  const leaders = new WeakMap<FastifyRequest, Leader>();
  const served = new WeakSet<FastifyRequest>();
  const counts = { hits: 0, misses: 0, bypasses: 0, renders: 0, coalesced: 0, stored: 0, invalidations: 0 };

  // The fingerprint, read again once it is older than versionCheckMs (one read at a time). A
  // read starts in the background a quarter of the interval early, so under steady traffic no
  // request waits for it (a wait of every request in flight each second is a p99 spike); only a
  // fingerprint past its interval is waited for. Its age counts from when its read started.
  let version: string | null = null;
  let versionReadAt = -Infinity;
  let reading: Promise<void> | null = null;
  function readVersion(): Promise<void> {
    const startedAt = now();
    reading ??= options
      .readVersion()
      .then(
        (next) => {
          if (version !== null && next !== version) {
            lru.clear();
            counts.invalidations++;
          }
          version = next;
        },
        (err: unknown) => {
          // Unknown state: nothing is served from memory until a read succeeds.
          options.log?.warn({ err }, 'page cache: version read failed, bypassing');
          lru.clear();
          version = null;
        },
      )
      .finally(() => {
        versionReadAt = startedAt;
        reading = null;
      });
    return reading;
  }
  async function currentVersion(): Promise<string | null> {
    const age = now() - versionReadAt;
    if (age < versionCheckMs) {
      if (age >= versionCheckMs * 0.75 && !reading) void readVersion();
      return version;
    }
    await readVersion();
    return version;
  }

  function lookup(key: string, currentVersionValue: string): Entry | null {
    const entry = lru.get(key);
    if (!entry) return null;
    if (entry.version !== currentVersionValue || now() - entry.storedAt >= options.ttlMs) {
      lru.delete(key);
      return null;
    }
    return entry;
  }

  function serve(req: FastifyRequest, reply: FastifyReply, entry: Entry, label: 'HIT'): FastifyReply {
    served.add(req);
    counts.hits++;
    for (const [name, value] of entry.headers) reply.header(name, value);
    reply.header('etag', entry.etag);
    reply.header('age', String(Math.max(0, Math.floor((now() - entry.storedAt) / 1000))));
    reply.header('x-cache', label);
    if (etagMatches(req.headers['if-none-match'], entry.etag)) {
      reply.removeHeader('content-encoding');
      return reply.code(304).send();
    }
    reply.header('content-length', String(entry.body.length));
    // Node leaves the body out of a HEAD answer itself.
    return reply.code(entry.status).send(entry.body);
  }

  return {
    async onRequest(req, reply) {
      const reason = bypassReason(req);
      if (reason === 'method') return;
      if (reason) {
        counts.bypasses++;
        reply.header('x-cache', 'BYPASS');
        return;
      }
      const currentVersionValue = await currentVersion();
      if (currentVersionValue === null) {
        counts.bypasses++;
        reply.header('x-cache', 'BYPASS');
        return;
      }
      const encoding = chooseEncoding(req.headers['accept-encoding'], req.headers['x-no-compression'] !== undefined);
      // HEAD shares the GET entry: same headers, Node sends no body.
      const key = `${encoding} ${req.url}`;
      const entry = lookup(key, currentVersionValue);
      // Answered here: the route's handler (React rendering) never runs.
      if (entry) return serve(req, reply, entry, 'HIT');
      counts.misses++;
      reply.header('x-cache', 'MISS');
      if (req.method === 'HEAD') return;
      const pending = inflight.get(key);
      if (pending) {
        // Another request is rendering this page: wait for its bytes instead of rendering again.
        let timer: NodeJS.Timeout | undefined;
        const shared = await Promise.race([
          pending,
          new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), coalesceWaitMs))),
        ]);
        clearTimeout(timer);
        if (shared && !req.raw.destroyed) {
          counts.misses--;
          counts.coalesced++;
          return serve(req, reply, shared, 'HIT');
        }
        // Nothing shared (not storable, failed): this request renders for itself.
        return;
      }
      let resolve!: (entry: Entry | null) => void;
      const promise = new Promise<Entry | null>((r) => (resolve = r));
      inflight.set(key, promise);
      leaders.set(req, {
        key,
        encoding,
        version: currentVersionValue,
        resolve(value) {
          if (inflight.get(key) === promise) inflight.delete(key);
          resolve(value);
        },
      });
    },

    async onSend(req, reply, payload) {
      if (served.has(req)) return payload;
      counts.renders++;
      const leader = leaders.get(req);
      if (!leader) return payload;
      leaders.delete(req);
      if (!isStorable(reply.statusCode, reply.getHeaders()) || payload === null || payload === undefined) {
        leader.resolve(null);
        return payload;
      }
      let entry: Entry;
      let body: Buffer;
      try {
        const identity = await collect(payload);
        body = await encode(identity, leader.encoding, brotliQuality);
        if (leader.encoding !== 'identity') reply.header('content-encoding', leader.encoding);
        addVary(reply);
        const etag = `"${crypto.createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
        reply.header('etag', etag);
        reply.header('content-length', String(body.length));
        const headers: Entry['headers'] = [];
        for (const [name, value] of Object.entries(reply.getHeaders())) {
          if (value === undefined || UNSTORED_HEADERS.has(name)) continue;
          headers.push([name, Array.isArray(value) ? value.map(String) : String(value)]);
        }
        entry = {
          status: reply.statusCode,
          headers,
          body,
          etag,
          storedAt: now(),
          bytes: body.length + 2048,
          version: leader.version,
        };
      } catch (err) {
        // The render broke off (a client gone, an error while streaming): nothing to keep.
        leader.resolve(null);
        throw err;
      }
      // Rendered under a fingerprint that has changed since: shared with its waiters, not kept.
      if (entry.version === version && lru.set(leader.key, entry)) counts.stored++;
      leader.resolve(entry);
      return body;
    },

    async onDone(req) {
      const leader = leaders.get(req);
      if (!leader) return;
      leaders.delete(req);
      leader.resolve(null);
    },

    stats() {
      return { ...counts, entries: lru.size, bytes: lru.bytes };
    },

    clear() {
      lru.clear();
    },
  };
}

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

function addVary(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  const list =
    vary === undefined ? [] : (Array.isArray(vary) ? vary.join(',') : String(vary)).split(',').map((v) => v.trim());
  if (!list.some((v) => v.toLowerCase() === 'accept-encoding')) list.push('Accept-Encoding');
  reply.header('vary', list.filter(Boolean).join(', '));
}

async function collect(payload: unknown): Promise<Buffer> {
  if (Buffer.isBuffer(payload)) return payload;
  if (typeof payload === 'string') return Buffer.from(payload);
  if (payload instanceof Uint8Array) return Buffer.from(payload);
  if (
    payload instanceof Readable ||
    (typeof payload === 'object' && payload !== null && Symbol.asyncIterator in payload)
  ) {
    const chunks: Buffer[] = [];
    for await (const chunk of payload as AsyncIterable<Buffer | string>)
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    return Buffer.concat(chunks);
  }
  throw new Error('page cache: unexpected payload');
}

async function encode(body: Buffer, encoding: PageEncoding, brotliQuality: number): Promise<Buffer> {
  if (encoding === 'br')
    return brotli(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: brotliQuality,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    });
  if (encoding === 'gzip') return gzip(body, { level: 6 });
  return ownSizedBytes(body);
}

/**
 * The bytes in a buffer of their own size. A rendered document is a view of its collector's
 * buffer, which has room to spare (DocumentBytes.document()): what the cache keeps must not hold
 * that room for as long as it keeps the page.
 */
export function ownSizedBytes(body: Buffer): Buffer {
  return body.byteOffset === 0 && body.byteLength === body.buffer.byteLength ? body : Buffer.copyBytesFrom(body);
}
