import type { FastifyInstance } from 'fastify';
import { ByteLru } from '~/shared/byte-lru';
import { deepFreeze } from '~/shared/deep-freeze';

// Server rendering calls the API in the same process: Fastify's inject runs the whole request
// lifecycle (filter, validation, handlers) without a socket.
//
// With a `version`, the answers the API marks public (`Cache-Control: public`, a 200 to a GET
// with no cookie or authorization, no Set-Cookie) are kept as text and answered again without
// the inject while the data version stands and for at most `ttlMs` (issue #13: the menu, the page
// metadata and a listing's answer cost about a millisecond of every page in inject, routing and
// JSON encoding, although the API's own memos already hold them). Everything else goes through.

/** How long a public answer is reused: added to the API memos' bound on unannounced changes. */
export const PUBLIC_ANSWER_TTL_MS = 5_000;

export interface InProcessFetchOptions {
  /** The data version (api/meta/data-version.server.ts): a change drops every kept answer. */
  version?: () => Promise<{ seq: number }>;
  ttlMs?: number;
  /** Bytes of kept answers, least recently used out first. */
  maxBytes?: number;
  now?: () => number;
}

interface Kept {
  seq: number;
  at: number;
  status: number;
  headers: Array<[string, string]>;
  /** The body as text, decoded once: what a hit's Response carries. */
  text: string;
  /** The body parsed and deep-frozen, on the first keptValue: every request's ApiClient shares it. */
  value?: { parsed: unknown };
  bytes: number;
}

/** The in-process API: a fetch, and the kept answers' lookup (ApiClientOptions.keptValue). */
export interface InProcessApi {
  fetch: typeof fetch;
  /**
   * A kept public answer to a GET of this URL, while it stands, parsed once and deep-frozen (the
   * same objects for every caller until the answer is dropped); else undefined.
   */
  keptValue(url: string): Promise<unknown>;
}

export function createInProcessFetch(app: FastifyInstance, options: InProcessFetchOptions = {}): InProcessApi {
  const { version, ttlMs = PUBLIC_ANSWER_TTL_MS, maxBytes = 16 * 1024 * 1024, now = Date.now } = options;
  const kept = new ByteLru<Kept>(maxBytes);

  async function inject(
    request: Request,
    path: string,
  ): Promise<{ status: number; headers: Array<[string, string]>; body: Uint8Array<ArrayBuffer> }> {
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const sent = Object.fromEntries(request.headers);
    const res = await app.inject({
      method: request.method as 'GET',
      url: path,
      headers: sent,
      // The shopper's address (set by the server from the page request, never taken from a
      // browser here) becomes the socket's, so the API's per-IP limits count the shopper.
      ...(sent['x-real-ip'] ? { remoteAddress: sent['x-real-ip'] } : {}),
      ...(body ? { payload: body } : {}),
    });
    const headers: Array<[string, string]> = [];
    for (const [key, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const v of value) headers.push([key, v]);
      else headers.push([key, String(value)]);
    }
    return { status: res.statusCode, headers, body: new Uint8Array(res.rawPayload) };
  }

  const respond = (
    method: string,
    {
      status,
      headers,
      body,
    }: { status: number; headers: Array<[string, string]>; body: Uint8Array<ArrayBuffer> | string },
  ) => new Response(status === 204 || status === 304 || method === 'HEAD' ? null : body, { status, headers });

  /** A kept answer that still stands: same data version, younger than the TTL. */
  async function standing(
    readVersion: () => Promise<{ seq: number }>,
    key: string,
  ): Promise<{ seq: number; hit: Kept | undefined }> {
    const { seq } = await readVersion();
    const hit = kept.get(key);
    return { seq, hit: hit && hit.seq === seq && now() - hit.at < ttlMs ? hit : undefined };
  }

  const fetchInProcess: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    // The API's path and query: what is injected, and the key of a kept answer.
    const key = url.pathname + url.search;
    const keepable =
      version !== undefined &&
      request.method === 'GET' &&
      !request.headers.has('cookie') &&
      !request.headers.has('authorization');
    if (!keepable) return respond(request.method, await inject(request, key));

    const { seq, hit } = await standing(version, key);
    if (hit) return respond('GET', { status: hit.status, headers: hit.headers, body: hit.text });

    const answer = await inject(request, key);
    if (isPublic(answer)) {
      const text = Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength).toString('utf8');
      // A string holds at most two bytes a character.
      kept.set(key, {
        status: answer.status,
        headers: answer.headers,
        text,
        seq,
        at: now(),
        bytes: 2 * text.length + key.length + 200,
      });
    } else {
      kept.delete(key);
    }
    return respond('GET', answer);
  };

  return {
    fetch: fetchInProcess,
    // The ApiClient asks here first for a GET; only its own headers (no cookie, no authorization)
    // go with such a call, so a kept answer is what fetchInProcess would answer. Parsing the same
    // text again for every page (the listing's answer is 16 KB) was ~3 % of a page's CPU; the
    // objects are frozen, so sharing them cannot carry one request's change into another's.
    async keptValue(address) {
      if (version === undefined) return undefined;
      const url = new URL(address);
      const { hit } = await standing(version, url.pathname + url.search);
      if (!hit) return undefined;
      hit.value ??= { parsed: deepFreeze(JSON.parse(hit.text)) };
      return hit.value.parsed;
    },
  };
}

function isPublic({ status, headers }: { status: number; headers: Array<[string, string]> }): boolean {
  if (status !== 200) return false;
  let cacheControl = '';
  for (const [key, value] of headers) {
    if (key === 'set-cookie') return false;
    if (key === 'cache-control') cacheControl = value.toLowerCase();
  }
  return /(?:^|,)\s*public\b/.test(cacheControl) && !/\b(?:private|no-store|no-cache)\b/.test(cacheControl);
}
