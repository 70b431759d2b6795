import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOfflineSms, lastSmsTo, readSmsOutbox } from './offline.server';
import { SmsError } from './sms';

let dir: string;
let outboxDir: string;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vitrina-sms-'));
  // A folder that does not exist yet: the gateway must create it.
  outboxDir = path.join(dir, 'outbox');
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('offline SMS gateway', () => {
  it('appends one JSON line per message and logs the text', async () => {
    const logged: Array<{ obj: object; msg: string }> = [];
    const sms = createOfflineSms({ outboxDir, log: { info: (obj, msg) => logged.push({ obj, msg }) } });
    expect(sms.kind).toBe('offline');
    const { id } = await sms.send({ phone: '79990000000', text: 'Код для входа: 1234', tag: 'login-code' });

    const raw = await fs.readFile(path.join(outboxDir, 'sms.jsonl'), 'utf8');
    expect(raw.endsWith('\n')).toBe(true);
    const lines = raw.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    const record = JSON.parse(lines[0]!);
    expect(record).toEqual({
      id,
      at: expect.any(String),
      phone: '79990000000',
      text: 'Код для входа: 1234',
      tag: 'login-code',
    });
    expect(new Date(record.at).toISOString()).toBe(record.at);

    expect(logged).toHaveLength(1);
    expect(logged[0]!.msg).toContain('Код для входа: 1234');
    expect(logged[0]!.obj).toMatchObject({ sms: { id, phone: '79990000000' } });
  });

  it('records a missing tag as null', async () => {
    const sms = createOfflineSms({ outboxDir });
    await sms.send({ phone: '79990000001', text: 'hi' });
    const [message] = await readSmsOutbox(outboxDir);
    expect(message?.tag).toBeNull();
  });

  it('keeps lines whole when many sends run at once', async () => {
    const a = createOfflineSms({ outboxDir });
    const b = createOfflineSms({ outboxDir }); // a second gateway on the same file
    const long = 'x'.repeat(5000); // bigger than one pipe buffer chunk, to tempt interleaving
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        (i % 2 ? a : b).send({ phone: `7999000${String(i).padStart(4, '0')}`, text: `${i} ${long}`, tag: 't' }),
      ),
    );

    const raw = await fs.readFile(path.join(outboxDir, 'sms.jsonl'), 'utf8');
    const lines = raw.trimEnd().split('\n');
    expect(lines).toHaveLength(60);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();

    const messages = await readSmsOutbox(outboxDir);
    expect(messages).toHaveLength(60);
    expect(new Set(messages.map((m) => m.id))).toEqual(new Set(results.map((r) => r.id)));
    expect(new Set(messages.map((m) => m.phone)).size).toBe(60);
  });

  it('refuses malformed input before writing anything', async () => {
    const sms = createOfflineSms({ outboxDir });
    await expect(sms.send({ phone: '+7 999 000-00-00', text: 'hi' })).rejects.toMatchObject({
      code: 'invalid_phone',
      retryable: false,
    });
    await expect(sms.send({ phone: '79990000000', text: '  ' })).rejects.toBeInstanceOf(SmsError);
    expect(await readSmsOutbox(outboxDir)).toEqual([]);
  });

  it('refuses chosen numbers the way SMS.ru does (207)', async () => {
    const sms = createOfflineSms({ outboxDir, rejectPhones: ['79990000666'] });
    const error = await sms.send({ phone: '79990000666', text: 'hi' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SmsError);
    expect(error).toMatchObject({ code: 'phone_not_allowed', retryable: false, providerCode: 207 });
    await sms.send({ phone: '79990000000', text: 'ok' });
    expect((await readSmsOutbox(outboxDir)).map((m) => m.phone)).toEqual(['79990000000']);
  });
});

describe('readSmsOutbox', () => {
  it('reads a missing outbox as empty', async () => {
    expect(await readSmsOutbox(path.join(dir, 'nowhere'))).toEqual([]);
  });

  it('skips a torn last line', async () => {
    const sms = createOfflineSms({ outboxDir });
    await sms.send({ phone: '79990000001', text: 'one' });
    await sms.send({ phone: '79990000002', text: 'two' });
    // What a crash in the middle of a write leaves behind.
    await fs.appendFile(path.join(outboxDir, 'sms.jsonl'), '{"id":"offline-torn","at":"2024-01-01T00:0');

    const messages = await readSmsOutbox(outboxDir);
    expect(messages.map((m) => m.text)).toEqual(['one', 'two']);
  });

  it('starts the next message on a fresh line after a torn one', async () => {
    const sms = createOfflineSms({ outboxDir });
    await sms.send({ phone: '79990000001', text: 'one' });
    await fs.appendFile(path.join(outboxDir, 'sms.jsonl'), '{"id":"offline-torn","ph');
    await sms.send({ phone: '79990000002', text: 'two' });

    expect((await readSmsOutbox(outboxDir)).map((m) => m.text)).toEqual(['one', 'two']);
  });

  it('ignores lines that are JSON but not messages', async () => {
    await fs.mkdir(outboxDir, { recursive: true });
    await fs.writeFile(
      path.join(outboxDir, 'sms.jsonl'),
      '[1,2]\n{"id":"x"}\n\n{"id":"a","at":"2024-01-01T00:00:00.000Z","phone":"79990000000","text":"ok"}\n',
    );
    expect(await readSmsOutbox(outboxDir)).toEqual([
      { id: 'a', at: '2024-01-01T00:00:00.000Z', phone: '79990000000', text: 'ok', tag: null },
    ]);
  });

  it('finds the newest message to a number', async () => {
    const sms = createOfflineSms({ outboxDir });
    await sms.send({ phone: '79990000001', text: 'code 1111', tag: 'login-code' });
    await sms.send({ phone: '79990000002', text: 'code 2222', tag: 'login-code' });
    await sms.send({ phone: '79990000001', text: 'code 3333', tag: 'login-code' });
    await sms.send({ phone: '79990000001', text: 'your order', tag: 'order' });

    expect((await lastSmsTo(outboxDir, '79990000001'))?.text).toBe('your order');
    expect((await lastSmsTo(outboxDir, '79990000001', 'login-code'))?.text).toBe('code 3333');
    expect(await lastSmsTo(outboxDir, '79990000009')).toBeUndefined();
  });
});
