import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMailSender, mailConfigSchema, readMailOutbox } from './index.server';

describe('mailConfigSchema', () => {
  it('defaults to the offline sender with nothing set', () => {
    expect(mailConfigSchema.parse({})).toEqual({
      MAIL_PROVIDER: 'offline',
      SMTP_URL: undefined,
      MAIL_FROM: 'Vitrina <hello@vitrina.ru>',
    });
  });

  it('reads SMTP settings, treating empty values as unset', () => {
    expect(
      mailConfigSchema.parse({
        MAIL_PROVIDER: 'smtp',
        SMTP_URL: 'smtps://user:pass@smtp.example.com:465',
        MAIL_FROM: '',
      }),
    ).toEqual({
      MAIL_PROVIDER: 'smtp',
      SMTP_URL: 'smtps://user:pass@smtp.example.com:465',
      MAIL_FROM: 'Vitrina <hello@vitrina.ru>',
    });
    expect(mailConfigSchema.parse({ MAIL_FROM: ' Витрина <shop@example.com> ', SMTP_URL: '' })).toMatchObject({
      MAIL_FROM: 'Витрина <shop@example.com>',
      SMTP_URL: undefined,
    });
  });

  it('requires the SMTP URL for smtp, naming the variable', () => {
    const result = mailConfigSchema.safeParse({ MAIL_PROVIDER: 'smtp', SMTP_URL: '' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join('.'))).toEqual(['SMTP_URL']);
  });

  it('rejects unknown providers and malformed values', () => {
    expect(mailConfigSchema.safeParse({ MAIL_PROVIDER: 'sendgrid' }).success).toBe(false);
    expect(mailConfigSchema.safeParse({ SMTP_URL: 'https://smtp.example.com' }).success).toBe(false);
    expect(mailConfigSchema.safeParse({ MAIL_FROM: 'Vitrina' }).success).toBe(false);
    expect(mailConfigSchema.safeParse({ MAIL_FROM: 'a@example.com\r\nBcc: b@example.com' }).success).toBe(false);
  });
});

describe('createMailSender', () => {
  it('writes to DATA_DIR/outbox/mail/ when offline', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vitrina-mail-'));
    try {
      const mail = createMailSender(mailConfigSchema.parse({}), { dataDir });
      expect(mail.kind).toBe('offline');
      await mail.send({ to: 'anna@example.com', subject: 'Тема', text: 'Текст', tag: 't' });
      const messages = await readMailOutbox(path.join(dataDir, 'outbox'));
      expect(messages.map((m) => [m.from, m.to, m.subject, m.text])).toEqual([
        ['Vitrina <hello@vitrina.ru>', 'anna@example.com', 'Тема', 'Текст'],
      ]);
      expect(path.dirname(messages[0]!.file)).toBe(path.join(dataDir, 'outbox', 'mail'));
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });

  it('picks the SMTP sender when configured', () => {
    const mail = createMailSender(
      mailConfigSchema.parse({ MAIL_PROVIDER: 'smtp', SMTP_URL: 'smtp://127.0.0.1:2525' }),
      { dataDir: os.tmpdir() },
    );
    expect(mail.kind).toBe('smtp');
  });
});
