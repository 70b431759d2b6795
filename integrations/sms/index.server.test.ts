import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSmsGateway, readSmsOutbox, smsConfigSchema } from './index.server';

describe('smsConfigSchema', () => {
  it('defaults to the offline gateway with nothing set', () => {
    expect(smsConfigSchema.parse({})).toEqual({
      SMS_PROVIDER: 'offline',
      SMSRU_API_ID: undefined,
      SMSRU_FROM: undefined,
      SMSRU_BASE_URL: undefined,
      SMSRU_TEST: false,
      SMSRU_TIMEOUT_MS: 10_000,
      SMS_OFFLINE_REJECT_PHONES: [],
    });
  });

  it('reads SMS.ru settings, treating empty values as unset', () => {
    const config = smsConfigSchema.parse({
      SMS_PROVIDER: 'smsru',
      SMSRU_API_ID: 'abc',
      SMSRU_FROM: '',
      SMSRU_BASE_URL: 'http://127.0.0.1:9999',
      SMSRU_TEST: 'true',
      SMSRU_TIMEOUT_MS: '2500',
      SMS_OFFLINE_REJECT_PHONES: '79990000666, 79990000667',
    });
    expect(config).toMatchObject({
      SMS_PROVIDER: 'smsru',
      SMSRU_API_ID: 'abc',
      SMSRU_FROM: undefined,
      SMSRU_TEST: true,
      SMSRU_TIMEOUT_MS: 2500,
      SMS_OFFLINE_REJECT_PHONES: ['79990000666', '79990000667'],
    });
  });

  it('requires the api id for SMS.ru, naming the variable', () => {
    const result = smsConfigSchema.safeParse({ SMS_PROVIDER: 'smsru', SMSRU_API_ID: '' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join('.'))).toEqual(['SMSRU_API_ID']);
  });

  it('rejects unknown providers and malformed values', () => {
    expect(smsConfigSchema.safeParse({ SMS_PROVIDER: 'twilio' }).success).toBe(false);
    expect(smsConfigSchema.safeParse({ SMSRU_BASE_URL: 'sms.ru' }).success).toBe(false);
    expect(smsConfigSchema.safeParse({ SMSRU_TEST: 'yes' }).success).toBe(false);
    expect(smsConfigSchema.safeParse({ SMS_OFFLINE_REJECT_PHONES: '+79990000666' }).success).toBe(false);
  });
});

describe('createSmsGateway', () => {
  it('writes to DATA_DIR/outbox/sms.jsonl when offline', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vitrina-sms-'));
    try {
      const sms = createSmsGateway(smsConfigSchema.parse({}), { dataDir });
      expect(sms.kind).toBe('offline');
      await sms.send({ phone: '79990000000', text: 'Код: 1234', tag: 'login-code' });
      const messages = await readSmsOutbox(path.join(dataDir, 'outbox'));
      expect(messages.map((m) => m.text)).toEqual(['Код: 1234']);
      await expect(fs.access(path.join(dataDir, 'outbox', 'sms.jsonl'))).resolves.toBeUndefined();
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });

  it('picks the SMS.ru client when configured', () => {
    const sms = createSmsGateway(smsConfigSchema.parse({ SMS_PROVIDER: 'smsru', SMSRU_API_ID: 'abc' }), {
      dataDir: os.tmpdir(),
    });
    expect(sms.kind).toBe('smsru');
  });
});
