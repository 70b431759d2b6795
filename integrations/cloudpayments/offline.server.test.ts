import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyContentHmac } from './hmac.server';
import { createOfflineCloudPayments, type NotificationKind } from './offline.server';

// The offline CloudPayments: what it sends the shop (signed form bodies, Check then Pay or Fail),
// what it remembers (findPayment, across a restart), refunds and replays.

const SECRET = 'offline-secret';
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function setUp(answer: (kind: NotificationKind, fields: Record<string, string>) => number = () => 0) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-offline-'));
  dirs.push(dir);
  const sent: { kind: NotificationKind; fields: Record<string, string>; signed: boolean; decodedSigned: boolean }[] =
    [];
  const stand = createOfflineCloudPayments({ publicId: 'test_api_1', apiSecret: SECRET, outboxDir: dir });
  stand.connect(async (kind, body, headers) => {
    const fields = Object.fromEntries(new URLSearchParams(body));
    sent.push({
      kind,
      fields,
      signed: verifyContentHmac(SECRET, body, headers['content-hmac']),
      decodedSigned: verifyContentHmac(SECRET, decodeURIComponent(body.replace(/\+/g, ' ')), headers['x-content-hmac']),
    });
    return { status: 200, code: answer(kind, fields) };
  });
  return { stand, sent, dir };
}

const request = {
  invoiceId: '42',
  accountId: '7',
  email: 'anna@example.com',
  description: 'Заказ №42 в Vitrina',
  amountKopecks: 1500_50,
  currency: 'RUB',
  cardNumber: '4242 4242 4242 4242',
  secureCode: '1234',
};

describe('offline CloudPayments', () => {
  it('sends a signed Check then Pay, in test mode, and answers find like the API', async () => {
    const { stand, sent } = setUp();
    const result = await stand.charge(request);
    expect(result.success).toBe(true);
    expect(sent.map((s) => s.kind)).toEqual(['check', 'pay']);
    expect(sent.every((s) => s.signed && s.decodedSigned)).toBe(true);
    expect(sent[1]?.fields).toMatchObject({
      TransactionId: result.transactionId,
      Amount: '1500.50',
      Currency: 'RUB',
      InvoiceId: '42',
      AccountId: '7',
      TestMode: '1',
      Status: 'Completed',
      CardFirstSix: '424242',
      CardLastFour: '4242',
    });
    expect(sent[1]?.fields.DateTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(await stand.findPayment('42')).toMatchObject({
      transactionId: result.transactionId,
      amountKopecks: 1500_50,
      currency: 'RUB',
      status: 'Completed',
    });
    expect(await stand.findPayment('43')).toBeNull();
  });

  it('declines with 5051 (Отклонить, or the card without funds) and 5206 (3-D Secure 0000), sending Fail', async () => {
    const { stand, sent } = setUp();
    expect(await stand.charge({ ...request, decline: true })).toMatchObject({ success: false, reasonCode: 5051 });
    expect(await stand.charge({ ...request, cardNumber: '4012 8888 8888 1881' })).toMatchObject({
      success: false,
      reasonCode: 5051,
    });
    expect(await stand.charge({ ...request, secureCode: '0000' })).toMatchObject({ success: false, reasonCode: 5206 });
    expect(sent.filter((s) => s.kind === 'fail').map((s) => s.fields.ReasonCode)).toEqual(['5051', '5051', '5206']);
    expect((await stand.findPayment('42'))?.status).toBe('Declined');
  });

  it('sends no Pay when the shop refuses the Check', async () => {
    const { stand, sent } = setUp((kind) => (kind === 'check' ? 12 : 0));
    const result = await stand.charge(request);
    expect(result).toMatchObject({ success: false, checkCode: 12 });
    expect(sent.map((s) => s.kind)).toEqual(['check']);
  });

  it('replays a notification byte for byte, refunds once, and remembers payments across a restart', async () => {
    const { stand, sent, dir } = setUp();
    const result = await stand.charge(request);
    if (!result.success) throw new Error('declined');
    await stand.replay(result.transactionId, 'pay');
    expect(sent.filter((s) => s.kind === 'pay')).toHaveLength(2);
    expect(sent[2]?.fields).toEqual(sent[1]?.fields);
    await stand.refund(result.transactionId, 1500_50);
    expect(sent.at(-1)).toMatchObject({
      kind: 'refund',
      fields: { PaymentTransactionId: result.transactionId, Amount: '1500.50', InvoiceId: '42' },
    });
    await expect(stand.refund(result.transactionId, 1)).rejects.toThrow();
    await expect(stand.replay('1', 'pay')).rejects.toThrow();
    const again = createOfflineCloudPayments({ publicId: 'test_api_1', apiSecret: SECRET, outboxDir: dir });
    expect(await again.findPayment('42')).toMatchObject({ transactionId: result.transactionId, status: 'Completed' });
    expect(again.payment(result.transactionId)?.refundedKopecks).toBe(1500_50);
  });
});
