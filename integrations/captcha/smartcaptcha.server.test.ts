import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSmartCaptchaClient } from './smartcaptcha.server';

// A local fake of Yandex SmartCaptcha's documented /validate (INTEGRATIONS.md §5).

const SECRET = 'ysc2_SECRET-smartcaptcha-server-key';

interface Received {
  method: string | undefined;
  path: string;
  contentType: string | undefined;
  params: Record<string, string>;
}

type Reply = (res: http.ServerResponse) => void;

let server: http.Server;
let verifyUrl: string;
let received: Received[] = [];
let reply: Reply;

function json(res: http.ServerResponse, body: unknown, status = 200) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

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
      reply(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  verifyUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/validate`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  received = [];
  reply = (res) => json(res, { status: 'ok', message: '', host: 'vitrina.example' });
});

const input = { token: 'dD0xNjk-smart-token', action: 'send_sms', ip: '203.0.113.7' };

describe('Yandex SmartCaptcha client', () => {
  it('posts secret, token and ip as a form and passes status ok', async () => {
    const captcha = createSmartCaptchaClient({ secret: SECRET, verifyUrl });
    expect(captcha.kind).toBe('smartcaptcha');
    expect(await captcha.verify(input)).toEqual({ ok: true });
    expect(received).toEqual([
      {
        method: 'POST',
        path: '/validate',
        contentType: expect.stringMatching(/^application\/x-www-form-urlencoded/),
        params: { secret: SECRET, token: 'dD0xNjk-smart-token', ip: '203.0.113.7' },
      },
    ]);
  });

  it('fails status failed, with the message', async () => {
    reply = (res) => json(res, { status: 'failed', message: 'Token invalid or expired.', host: '' });
    expect(await createSmartCaptchaClient({ secret: SECRET, verifyUrl }).verify(input)).toEqual({
      ok: false,
      reason: 'refused: Token invalid or expired.',
    });
  });

  it('fails on a 500 (closed, unlike Yandex sample code) and warns, without the secret', async () => {
    reply = (res) => json(res, { message: 'Internal error' }, 500);
    const warned: Array<{ obj: object; msg: string }> = [];
    const captcha = createSmartCaptchaClient({
      secret: SECRET,
      verifyUrl,
      log: { warn: (obj, msg) => warned.push({ obj, msg }) },
    });
    expect(await captcha.verify(input)).toEqual({ ok: false, reason: 'HTTP 500' });
    expect(warned).toHaveLength(1);
    expect(JSON.stringify(warned)).not.toContain(SECRET);
  });

  it('fails an answer without a status', async () => {
    reply = (res) => json(res, { host: 'vitrina.example' });
    expect(await createSmartCaptchaClient({ secret: SECRET, verifyUrl }).verify(input)).toMatchObject({ ok: false });
  });

  it('gives up after the timeout, failing the check instead of throwing', async () => {
    reply = () => {
      // Never answer; afterAll closes the connection.
    };
    const started = Date.now();
    expect(await createSmartCaptchaClient({ secret: SECRET, verifyUrl, timeoutMs: 150 }).verify(input)).toEqual({
      ok: false,
      reason: 'no answer within 150 ms',
    });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('fails an empty token without asking Yandex', async () => {
    expect(await createSmartCaptchaClient({ secret: SECRET, verifyUrl }).verify({ ...input, token: '' })).toMatchObject(
      { ok: false },
    );
    expect(received).toHaveLength(0);
  });
});
