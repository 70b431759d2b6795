import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseEml } from './eml';
import { MailError } from './mail';
import { createOfflineMail, lastMailTo, readMailOutbox } from './offline.server';

let dir: string;
let outboxDir: string;
const FROM = 'Vitrina <hello@vitrina.ru>';

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vitrina-mail-'));
  // A folder that does not exist yet: the sender must create it.
  outboxDir = path.join(dir, 'outbox');
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const welcome = {
  to: 'anna@example.com',
  subject: 'Вы подписались на рассылку Vitrina — спасибо!',
  text: 'Здравствуйте!\nСпасибо, что подписались на рассылку.\n\nhttps://vitrina.ru/',
  html: '<p>Здравствуйте! Спасибо, что подписались на рассылку.</p>',
  tag: 'newsletter-welcome',
};

describe('offline mail sender', () => {
  it('writes one RFC 5322 file per message and logs it', async () => {
    const logged: Array<{ obj: object; msg: string }> = [];
    const mail = createOfflineMail({ outboxDir, from: FROM, log: { info: (obj, msg) => logged.push({ obj, msg }) } });
    expect(mail.kind).toBe('offline');
    const { id } = await mail.send(welcome);

    const names = await fs.readdir(path.join(outboxDir, 'mail'));
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(new RegExp(`^\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}-\\d{3}Z-${id}\\.eml$`));
    const raw = await fs.readFile(path.join(outboxDir, 'mail', names[0]!));
    const source = raw.toString('latin1');

    // The file itself: CRLF line ends, 7-bit headers (the Cyrillic subject as encoded words).
    expect(source).toMatch(/\r\n\r\n/);
    expect(source.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const head = source.slice(0, source.indexOf('\r\n\r\n'));
    expect(head).toMatch(/^[\x20-\x7e\r\n\t]*$/);
    expect(head).toMatch(/^Subject: =\?UTF-8\?[BQ]\?/m);
    expect(head).toMatch(/^From: Vitrina <hello@vitrina\.ru>$/m);
    expect(head).toMatch(/^To: anna@example\.com$/m);
    expect(head).toMatch(/^Message-ID: <[0-9a-f-]{36}@vitrina\.ru>$/m);
    expect(head).toMatch(/^Date: /m);
    expect(head).toMatch(/^MIME-Version: 1\.0$/m);

    // Read back, it is the message that was sent.
    const parsed = parseEml(raw);
    expect(parsed).toMatchObject({
      from: FROM,
      to: welcome.to,
      subject: welcome.subject,
      text: welcome.text,
      html: welcome.html,
    });
    expect(parsed.headers['x-vitrina-tag']).toBe('newsletter-welcome');

    expect(logged).toHaveLength(1);
    expect(logged[0]!.msg).toContain(welcome.subject);
    expect(logged[0]!.msg).toContain('Спасибо, что подписались');
    expect(logged[0]!.obj).toMatchObject({ mail: { id, to: welcome.to, tag: 'newsletter-welcome' } });
  });

  it('leaves out the HTML part when there is none', async () => {
    const mail = createOfflineMail({ outboxDir, from: FROM });
    await mail.send({ to: 'boris@example.com', subject: 'Код для входа', text: 'Код: 482113', tag: 'login-code' });
    const [message] = await readMailOutbox(outboxDir);
    expect(message).toMatchObject({
      to: 'boris@example.com',
      subject: 'Код для входа',
      text: 'Код: 482113',
      html: null,
      tag: 'login-code',
    });
    expect(message?.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('never leaves a half-written .eml and keeps every message of a burst', async () => {
    const mail = createOfflineMail({ outboxDir, from: FROM });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        mail.send({ to: `buyer${i}@example.com`, subject: `Письмо ${i}`, text: `Текст ${i}`, tag: 't' }),
      ),
    );
    const names = await fs.readdir(path.join(outboxDir, 'mail'));
    expect(names.filter((n) => !n.endsWith('.eml'))).toEqual([]);
    const messages = await readMailOutbox(outboxDir);
    expect(messages).toHaveLength(20);
    expect(new Set(messages.map((m) => m.id))).toEqual(new Set(results.map((r) => r.id)));
    // File names sort in sending order.
    expect(messages.map((m) => m.subject)).toEqual(Array.from({ length: 20 }, (_, i) => `Письмо ${i}`));
  });

  it('refuses malformed messages before writing anything', async () => {
    const mail = createOfflineMail({ outboxDir, from: FROM });
    await expect(mail.send({ ...welcome, to: 'Анна <anna@example.com>' })).rejects.toMatchObject({
      code: 'invalid_message',
      retryable: false,
    });
    await expect(mail.send({ ...welcome, to: 'a@example.com, b@example.com' })).rejects.toBeInstanceOf(MailError);
    await expect(mail.send({ ...welcome, subject: 'one\r\nBcc: x@example.com' })).rejects.toBeInstanceOf(MailError);
    await expect(mail.send({ ...welcome, text: ' ' })).rejects.toBeInstanceOf(MailError);
    await expect(
      mail.send({ ...welcome, headers: { 'List-Unsubscribe': '<https://x.test/>\r\nBcc: x@example.com' } }),
    ).rejects.toBeInstanceOf(MailError);
    await expect(mail.send({ ...welcome, headers: { 'Bad Name': 'x' } })).rejects.toBeInstanceOf(MailError);
    expect(await readMailOutbox(outboxDir)).toEqual([]);
  });

  it('writes the extra headers a message carries (a marketing letter’s List-Unsubscribe)', async () => {
    const mail = createOfflineMail({ outboxDir, from: FROM });
    await mail.send({
      ...welcome,
      headers: {
        'List-Unsubscribe': '<https://vitrina.ru/newsletter/unsubscribe/?token=abc>',
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    });
    const [message] = await readMailOutbox(outboxDir);
    expect(message?.headers['list-unsubscribe']).toBe('<https://vitrina.ru/newsletter/unsubscribe/?token=abc>');
    expect(message?.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
  });
});

describe('readMailOutbox', () => {
  it('reads a missing outbox as empty', async () => {
    expect(await readMailOutbox(path.join(dir, 'nowhere'))).toEqual([]);
  });

  it('skips files that are not finished messages', async () => {
    const mail = createOfflineMail({ outboxDir, from: FROM });
    await mail.send(welcome);
    await fs.writeFile(path.join(outboxDir, 'mail', '.2030-01-01T00-00-00-000Z-x.eml.tmp'), 'From: x');
    expect((await readMailOutbox(outboxDir)).map((m) => m.subject)).toEqual([welcome.subject]);
  });

  it('finds the newest message to an address, whatever its case', async () => {
    const mail = createOfflineMail({ outboxDir, from: FROM });
    await mail.send({ to: 'anna@example.com', subject: 'Первое', text: '1', tag: 'a' });
    await mail.send({ to: 'boris@example.com', subject: 'Второе', text: '2', tag: 'a' });
    await mail.send({ to: 'anna@example.com', subject: 'Третье', text: '3', tag: 'b' });
    expect((await lastMailTo(outboxDir, 'Anna@Example.com'))?.subject).toBe('Третье');
    expect((await lastMailTo(outboxDir, 'anna@example.com', 'a'))?.subject).toBe('Первое');
    expect(await lastMailTo(outboxDir, 'nobody@example.com')).toBeUndefined();
  });
});

describe('parseEml', () => {
  it('reads quoted-printable parts and Q-encoded words, joining a character split across words', () => {
    const raw = [
      'From: =?UTF-8?Q?=D0=92=D0=B8=D1=82=D1=80=D0=B8=D0=BD=D0=B0?= <hello@vitrina.ru>',
      'To: "Anna" <anna@example.com>',
      // 'Привет' with the 'и' (D0 B8) split between two words.
      'Subject: =?UTF-8?B?0J/RgNA=?= =?UTF-8?B?uNCy0LXRgg==?= world',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      '=D0=94=D0=BE =D0=B2=D1=81=D1=82=D1=80=D0=B5=D1=87=D0=B8, long line that was soft-=',
      'broken.',
    ].join('\r\n');
    expect(parseEml(raw)).toMatchObject({
      from: 'Витрина <hello@vitrina.ru>',
      to: 'anna@example.com',
      subject: 'Привет world',
      text: 'До встречи, long line that was soft-broken.',
      html: null,
    });
  });
});
