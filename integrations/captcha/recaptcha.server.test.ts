import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createRecaptchaClient } from './recaptcha.server';

// A local fake of Google's documented siteverify (INTEGRATIONS.md §5): each test sets how it
// answers and then checks the exact request the client made.

const SECRET = '6LeSECRET-recaptcha-server-key';

interface Received {
  method: string | undefined;
  path: string;
  contentType: string | undefined;
  params: Record<string, string>;
}

type Reply = (res: http.ServerResponse, params: Record<string, string>) => void;

let server: http.Server;
let verifyUrl: string;
let received: Received[] = [];
let reply: Reply;

function json(res: http.ServerResponse, body: unknown, status = 200) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

const human =
  (overrides: Record<string, unknown> = {}): Reply =>
  (res) =>
    json(res, {
      success: true,
      score: 0.9,
      action: 'send_sms',
      challenge_ts: '2026-11-22T10:00:00Z',
      hostname: 'vitrina.example',
      ...overrides,
    });

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const params = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      received.push({
        method: req.method,
        path: new URL(req.url ?? '/', 'http://fake').pathname,
        contentType: req.headers['content-type'],
        params,
      });
      reply(res, params);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  verifyUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/recaptcha/api/siteverify`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  received = [];
  reply = human();
});

const input = { token: 'token-from-the-browser', action: 'send_sms', ip: '203.0.113.7' };

describe('reCAPTCHA v3 client', () => {
  it('posts secret, response and remoteip as a form and passes a good answer', async () => {
    const captcha = createRecaptchaClient({ secret: SECRET, verifyUrl, hostnames: ['vitrina.example'] });
    expect(captcha.kind).toBe('recaptcha');
    expect(await captcha.verify(input)).toEqual({ ok: true, score: 0.9 });

    expect(received).toHaveLength(1);
    expect(received[0]).toEqual({
      method: 'POST',
      path: '/recaptcha/api/siteverify',
      contentType: expect.stringMatching(/^application\/x-www-form-urlencoded/),
      params: { secret: SECRET, response: 'token-from-the-browser', remoteip: '203.0.113.7' },
    });
  });

  it('leaves remoteip out when the ip is unknown', async () => {
    await createRecaptchaClient({ secret: SECRET, verifyUrl }).verify({ ...input, ip: '' });
    expect(received[0]?.params).toEqual({ secret: SECRET, response: 'token-from-the-browser' });
  });

  it('fails a token Google refused, with its error codes', async () => {
    reply = (res) => json(res, { success: false, 'error-codes': ['timeout-or-duplicate'] });
    expect(await createRecaptchaClient({ secret: SECRET, verifyUrl }).verify(input)).toEqual({
      ok: false,
      score: undefined,
      reason: 'refused: timeout-or-duplicate',
    });
  });

  it('fails a token made for another action', async () => {
    reply = human({ action: 'login' });
    const check = await createRecaptchaClient({ secret: SECRET, verifyUrl }).verify(input);
    expect(check).toMatchObject({ ok: false, reason: expect.stringContaining('action') });
  });

  it('fails a score below the threshold and passes one at it', async () => {
    reply = human({ score: 0.3 });
    expect(await createRecaptchaClient({ secret: SECRET, verifyUrl }).verify(input)).toMatchObject({
      ok: false,
      score: 0.3,
    });
    reply = human({ score: 0.7 });
    expect(await createRecaptchaClient({ secret: SECRET, verifyUrl, minScore: 0.8 }).verify(input)).toMatchObject({
      ok: false,
      score: 0.7,
    });
    expect(await createRecaptchaClient({ secret: SECRET, verifyUrl, minScore: 0.7 }).verify(input)).toEqual({
      ok: true,
      score: 0.7,
    });
  });

  it('fails an answer without a score (a v2 token)', async () => {
    reply = human({ score: undefined });
    expect(await createRecaptchaClient({ secret: SECRET, verifyUrl }).verify(input)).toMatchObject({ ok: false });
  });

  it('checks the hostname only when hostnames are configured', async () => {
    reply = human({ hostname: 'evil.example' });
    const strict = await createRecaptchaClient({ secret: SECRET, verifyUrl, hostnames: ['vitrina.example'] }).verify(
      input,
    );
    expect(strict).toMatchObject({ ok: false, reason: expect.stringContaining('hostname') });
    expect(await createRecaptchaClient({ secret: SECRET, verifyUrl }).verify(input)).toMatchObject({ ok: true });
  });

  it('fails on a 500 and warns, without the secret', async () => {
    reply = (res) => json(res, { error: 'boom' }, 500);
    const warned: Array<{ obj: object; msg: string }> = [];
    const captcha = createRecaptchaClient({
      secret: SECRET,
      verifyUrl,
      log: { warn: (obj, msg) => warned.push({ obj, msg }) },
    });
    expect(await captcha.verify(input)).toEqual({ ok: false, reason: 'HTTP 500' });
    expect(warned).toHaveLength(1);
    expect(JSON.stringify(warned)).not.toContain(SECRET);
  });

  it('fails on an answer that is not JSON', async () => {
    reply = (res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>maintenance</html>');
    };
    expect(await createRecaptchaClient({ secret: SECRET, verifyUrl }).verify(input)).toMatchObject({ ok: false });
  });

  it('warns when Google says the secret is wrong', async () => {
    reply = (res) => json(res, { success: false, 'error-codes': ['invalid-input-secret'] });
    const warned: string[] = [];
    const check = await createRecaptchaClient({
      secret: SECRET,
      verifyUrl,
      log: { warn: (_o, msg) => warned.push(msg) },
    }).verify(input);
    expect(check).toMatchObject({ ok: false, reason: expect.stringContaining('invalid-input-secret') });
    expect(warned).toHaveLength(1);
  });

  it('gives up after the timeout, failing the check instead of throwing', async () => {
    reply = () => {
      // Never answer; afterAll closes the connection.
    };
    const started = Date.now();
    const check = await createRecaptchaClient({ secret: SECRET, verifyUrl, timeoutMs: 150 }).verify(input);
    expect(check).toEqual({ ok: false, reason: 'no answer within 150 ms' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('fails when the service cannot be reached', async () => {
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const check = await createRecaptchaClient({
      secret: SECRET,
      verifyUrl: `http://127.0.0.1:${port}/siteverify`,
    }).verify(input);
    expect(check).toEqual({ ok: false, reason: 'could not reach the service' });
  });

  it('fails an empty token without asking Google', async () => {
    expect(await createRecaptchaClient({ secret: SECRET, verifyUrl }).verify({ ...input, token: ' ' })).toMatchObject({
      ok: false,
    });
    expect(received).toHaveLength(0);
  });
});
