import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SmsError } from './sms';
import { createSmsRuClient } from './smsru.server';

// A local fake of SMS.ru's documented /sms/send (INTEGRATIONS.md §4): each test sets how it
// answers and then checks the exact request the client made.

const API_ID = 'F2D79B58-SECRET-API-ID-73D12CE2E102';

interface Received {
  method: string | undefined;
  path: string;
  query: string;
  contentType: string | undefined;
  params: Record<string, string>;
}

type Reply = (req: http.IncomingMessage, res: http.ServerResponse, params: Record<string, string>) => void;

let server: http.Server;
let baseUrl: string;
let received: Received[] = [];
let reply: Reply;

function json(res: http.ServerResponse, body: unknown, status = 200) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

/** SMS.ru's success answer for the numbers in `to`. */
const accept: Reply = (_req, res, params) => {
  const sms: Record<string, unknown> = {};
  for (const n of (params.to ?? '').split(','))
    sms[n] = { status: 'OK', status_code: 100, sms_id: `000000-${n.slice(-6)}` };
  json(res, { status: 'OK', status_code: 100, sms, balance: 4122.56 });
};

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const params = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      received.push({
        method: req.method,
        path: url.pathname,
        query: url.search,
        contentType: req.headers['content-type'],
        params,
      });
      reply(req, res, params);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  received = [];
  reply = accept;
});

async function sendError(promise: Promise<unknown>): Promise<SmsError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SmsError);
  const smsError = error as SmsError;
  // The api_id must never appear in what callers log.
  expect(smsError.message).not.toContain(API_ID);
  expect(String(smsError.stack)).not.toContain(API_ID);
  return smsError;
}

describe('SMS.ru client', () => {
  it('posts the documented form to /sms/send and returns the sms_id', async () => {
    const logged: Array<{ obj: object; msg: string }> = [];
    const sms = createSmsRuClient({
      apiId: API_ID,
      from: 'Vitrina',
      test: true,
      baseUrl,
      log: { info: (obj, msg) => logged.push({ obj, msg }) },
    });
    expect(sms.kind).toBe('smsru');

    const result = await sms.send({
      phone: '79261234567',
      text: 'Код для входа: 4821',
      tag: 'login-code',
      ip: '203.0.113.7',
    });
    expect(result).toEqual({ id: '000000-234567' });

    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/sms/send');
    expect(request?.query).toBe(''); // nothing, the api_id least of all, in the URL
    expect(request?.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    expect(request?.params).toEqual({
      api_id: API_ID,
      to: '79261234567',
      msg: 'Код для входа: 4821',
      json: '1',
      from: 'Vitrina',
      ip: '203.0.113.7',
      test: '1',
    });

    // Logged without the code and without the api_id.
    expect(logged).toHaveLength(1);
    const line = JSON.stringify(logged);
    expect(line).not.toContain(API_ID);
    expect(line).not.toContain('4821');
    expect(logged[0]?.obj).toMatchObject({
      sms: { provider: 'smsru', id: '000000-234567', tag: 'login-code' },
      balance: 4122.56,
    });
  });

  it('sends only the required parameters when nothing optional is set', async () => {
    const sms = createSmsRuClient({ apiId: API_ID, baseUrl: `${baseUrl}/` });
    await sms.send({ phone: '79990000000', text: 'hello' });
    expect(received[0]?.path).toBe('/sms/send');
    expect(received[0]?.params).toEqual({ api_id: API_ID, to: '79990000000', msg: 'hello', json: '1' });
  });

  it('passes ttl when configured', async () => {
    const sms = createSmsRuClient({ apiId: API_ID, baseUrl, ttlMinutes: 5 });
    await sms.send({ phone: '79990000000', text: 'hello' });
    expect(received[0]?.params.ttl).toBe('5');
  });

  it('maps a refused request (200, bad api_id) to a non-retryable auth error, without the api_id', async () => {
    // Echo the api_id back to prove the client redacts whatever the provider says.
    reply = (_req, res, params) =>
      json(res, { status: 'ERROR', status_code: 200, status_text: `Неправильный api_id ${params.api_id}` });
    const sms = createSmsRuClient({ apiId: API_ID, baseUrl });
    const error = await sendError(sms.send({ phone: '79990000000', text: 'hello' }));
    expect(error).toMatchObject({ code: 'auth', retryable: false, providerCode: 200, httpStatus: 200 });
    expect(error.message).toContain('200');
  });

  it('maps insufficient balance (201) to a non-retryable no_funds error', async () => {
    reply = (_req, res) =>
      json(res, { status: 'ERROR', status_code: 201, status_text: 'Не хватает средств на лицевом счету' });
    const sms = createSmsRuClient({ apiId: API_ID, baseUrl });
    const error = await sendError(sms.send({ phone: '79990000000', text: 'hello' }));
    expect(error).toMatchObject({ code: 'no_funds', retryable: false, providerCode: 201 });
  });

  it('maps a per-number refusal (207) even when the request as a whole is OK', async () => {
    reply = (_req, res, params) =>
      json(res, {
        status: 'OK',
        status_code: 100,
        sms: {
          [params.to ?? '']: {
            status: 'ERROR',
            status_code: 207,
            status_text: 'На этот номер нельзя отправлять сообщения',
          },
        },
        balance: 10,
      });
    const sms = createSmsRuClient({ apiId: API_ID, baseUrl });
    const error = await sendError(sms.send({ phone: '79990000000', text: 'hello' }));
    expect(error).toMatchObject({ code: 'phone_not_allowed', retryable: false, providerCode: 207 });
  });

  it('maps a per-number bad number (202) to invalid_phone', async () => {
    reply = (_req, res, params) =>
      json(res, {
        status: 'OK',
        status_code: 100,
        sms: { [params.to ?? '']: { status: 'ERROR', status_code: 202, status_text: 'Неправильно указан номер' } },
      });
    const sms = createSmsRuClient({ apiId: API_ID, baseUrl });
    const error = await sendError(sms.send({ phone: '79990000000', text: 'hello' }));
    expect(error).toMatchObject({ code: 'invalid_phone', retryable: false, providerCode: 202 });
  });

  it('takes the single result even if SMS.ru keyed it by a rewritten number', async () => {
    reply = (_req, res) =>
      json(res, {
        status: 'OK',
        status_code: 100,
        sms: { '79990000000': { status: 'OK', status_code: 100, sms_id: '1-2' } },
      });
    const sms = createSmsRuClient({ apiId: API_ID, baseUrl });
    expect(await sms.send({ phone: '89990000000', text: 'hello' })).toEqual({ id: '1-2' });
  });

  it('treats an OK answer without a result for the number as a bad response', async () => {
    reply = (_req, res) => json(res, { status: 'OK', status_code: 100, sms: {} });
    const sms = createSmsRuClient({ apiId: API_ID, baseUrl });
    const error = await sendError(sms.send({ phone: '79990000000', text: 'hello' }));
    expect(error).toMatchObject({ code: 'bad_response', retryable: false });
  });

  it('maps a non-JSON 502 to a retryable unavailable error', async () => {
    reply = (_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><body>502 Bad Gateway</body></html>');
    };
    const sms = createSmsRuClient({ apiId: API_ID, baseUrl });
    const error = await sendError(sms.send({ phone: '79990000000', text: 'hello' }));
    expect(error).toMatchObject({ code: 'unavailable', retryable: true, httpStatus: 502 });
  });

  it('maps a 200 that is not JSON to a non-retryable bad response (it may have been sent)', async () => {
    reply = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('100\n000000-000001');
    };
    const sms = createSmsRuClient({ apiId: API_ID, baseUrl });
    const error = await sendError(sms.send({ phone: '79990000000', text: 'hello' }));
    expect(error).toMatchObject({ code: 'bad_response', retryable: false });
  });

  it('gives up after the timeout with a retryable timeout error', async () => {
    reply = () => {
      // Never answer; afterAll closes the connection.
    };
    const sms = createSmsRuClient({ apiId: API_ID, baseUrl, timeoutMs: 150 });
    const started = Date.now();
    const error = await sendError(sms.send({ phone: '79990000000', text: 'hello' }));
    expect(error).toMatchObject({ code: 'timeout', retryable: true });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(received).toHaveLength(1);
  });

  it('maps an unreachable service to a retryable network error', async () => {
    // A port that was just free: nothing listens there.
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));

    const sms = createSmsRuClient({ apiId: API_ID, baseUrl: `http://127.0.0.1:${port}` });
    const error = await sendError(sms.send({ phone: '79990000000', text: 'hello' }));
    expect(error).toMatchObject({ code: 'network', retryable: true });
  });

  it('refuses a malformed number without calling SMS.ru', async () => {
    const sms = createSmsRuClient({ apiId: API_ID, baseUrl });
    const error = await sendError(sms.send({ phone: '+7 (999) 000-00-00', text: 'hello' }));
    expect(error).toMatchObject({ code: 'invalid_phone', retryable: false });
    expect(received).toHaveLength(0);
  });
});
