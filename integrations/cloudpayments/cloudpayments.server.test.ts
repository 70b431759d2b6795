import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CloudPaymentsError } from './cloudpayments';
import { createCloudPaymentsClient } from './cloudpayments.server';

// A local fake of CloudPayments' server API as INTEGRATIONS.md §1 documents it: JSON, HTTP
// Basic publicId:apiSecret (401 otherwise), answers {Success, Message, Model}, X-Request-ID as
// the idempotency key of a refund.

const PUBLIC_ID = 'pk_test_public';
const API_SECRET = 'secret_api_value';

interface Received {
  path: string;
  authorization: string | undefined;
  requestId: string | undefined;
  contentType: string | undefined;
  body: Record<string, unknown>;
}

let server: http.Server;
let baseUrl: string;
let received: Received[];
let reply: (req: Received, res: http.ServerResponse) => void;
const refundsById = new Map<string, unknown>();

function json(res: http.ServerResponse, body: unknown, status = 200) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

const documented = (req: Received, res: http.ServerResponse) => {
  const expected = `Basic ${Buffer.from(`${PUBLIC_ID}:${API_SECRET}`).toString('base64')}`;
  if (req.authorization !== expected) return json(res, { Message: 'Authorization has been denied' }, 401);
  if (req.path === '/v2/payments/find') {
    if (req.body.InvoiceId === '42')
      return json(res, {
        Success: true,
        Message: null,
        Model: {
          TransactionId: 504,
          Amount: 1500.5,
          Currency: 'RUB',
          Status: 'Completed',
          InvoiceId: '42',
          AccountId: '7',
          TestMode: true,
          CardFirstSix: '424242',
        },
      });
    return json(res, { Success: false, Message: 'Not found', Model: null });
  }
  if (req.path === '/payments/refund') {
    // The same X-Request-ID within an hour gets the first answer: the refund happens once.
    const key = req.requestId ?? '';
    if (!refundsById.has(key))
      refundsById.set(key, { Success: true, Message: null, Model: { TransactionId: 505 + refundsById.size } });
    return json(res, refundsById.get(key));
  }
  return json(res, { Success: false, Message: 'Unknown method' }, 404);
};

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      const r: Received = {
        path: req.url ?? '',
        authorization: req.headers.authorization,
        requestId: req.headers['x-request-id'] as string | undefined,
        contentType: req.headers['content-type'],
        body: raw ? (JSON.parse(raw) as Record<string, unknown>) : {},
      };
      received.push(r);
      reply(r, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  received = [];
  reply = documented;
  refundsById.clear();
});

const client = (apiSecret = API_SECRET) =>
  createCloudPaymentsClient({ publicId: PUBLIC_ID, apiSecret, baseUrl, timeoutMs: 2000 });

describe('CloudPayments API client', () => {
  it('finds the payment of an invoice with Basic auth and JSON', async () => {
    expect(await client().findPayment('42')).toEqual({
      transactionId: '504',
      invoiceId: '42',
      accountId: '7',
      amountKopecks: 1500_50,
      currency: 'RUB',
      status: 'Completed',
      testMode: true,
    });
    expect(received[0]).toMatchObject({
      path: '/v2/payments/find',
      contentType: 'application/json',
      body: { InvoiceId: '42' },
    });
    expect(received[0]?.requestId).toMatch(/.+/);
  });

  it('answers null when CloudPayments has no payment for the invoice', async () => {
    expect(await client().findPayment('43')).toBeNull();
  });

  it('refunds with an idempotency key, so a retry does not refund twice', async () => {
    await client().refund('504', 1500_50);
    await client().refund('504', 1500_50);
    expect(received.map((r) => r.body)).toEqual([
      { TransactionId: 504, Amount: 1500.5 },
      { TransactionId: 504, Amount: 1500.5 },
    ]);
    expect(received[0]?.requestId).toBe(received[1]?.requestId);
    expect(refundsById.size).toBe(1);
  });

  it('fails with CloudPaymentsError on wrong keys, a refused refund, a server error and a timeout', async () => {
    await expect(client('wrong').findPayment('42')).rejects.toMatchObject({ name: 'CloudPaymentsError', status: 401 });
    reply = (_req, res) => json(res, { Success: false, Message: 'Refund amount exceeds payment amount' });
    await expect(client().refund('504', 1)).rejects.toThrow(/exceeds/);
    reply = (_req, res) => json(res, { Success: false, Message: 'Internal error' });
    await expect(client().findPayment('42')).rejects.toBeInstanceOf(CloudPaymentsError);
    reply = (_req, res) => {
      res.writeHead(502);
      res.end('bad gateway');
    };
    await expect(client().findPayment('42')).rejects.toMatchObject({ status: 502 });
    reply = () => {};
    await expect(
      createCloudPaymentsClient({ publicId: PUBLIC_ID, apiSecret: API_SECRET, baseUrl, timeoutMs: 200 }).findPayment(
        '42',
      ),
    ).rejects.toBeInstanceOf(CloudPaymentsError);
  });
});
