import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseEml, type ParsedMail } from './eml';
import { MailError } from './mail';
import { createSmtpMailer } from './smtp.server';

// A local fake SMTP server (the smtp-server package) on 127.0.0.1 and a random port: each
// test sets how it answers, then checks what arrived (credentials, envelope, the message).

const USER = 'shop@vitrina.ru';
const PASSWORD = 'S3cret/p@ss:word';
const FROM = 'Vitrina <hello@vitrina.ru>';

interface Received {
  user: string | undefined;
  mailFrom: string | undefined;
  rcptTo: string[];
  raw: Buffer;
  mail: ParsedMail;
}

let server: SMTPServer;
let port: number;
let received: Received[] = [];
/** The recipient check: undefined accepts, otherwise the error the server answers with. */
let refuseRecipient: { message: string; responseCode: number } | undefined;

const url = (password = PASSWORD) =>
  `smtp://${encodeURIComponent(USER)}:${encodeURIComponent(password)}@127.0.0.1:${port}`;

beforeAll(async () => {
  server = new SMTPServer({
    // Plain text on the loopback: no certificate to make, credentials still required.
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === USER && auth.password === PASSWORD) callback(null, { user: auth.username });
      else callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onRcptTo(_address, _session, callback) {
      if (refuseRecipient)
        callback(Object.assign(new Error(refuseRecipient.message), { responseCode: refuseRecipient.responseCode }));
      else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        const mailFrom = session.envelope.mailFrom;
        received.push({
          user: typeof session.user === 'string' ? session.user : undefined,
          mailFrom: mailFrom ? mailFrom.address : undefined,
          rcptTo: session.envelope.rcptTo.map((r) => r.address),
          raw,
          mail: parseEml(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  received = [];
  refuseRecipient = undefined;
});

async function sendError(promise: Promise<unknown>): Promise<MailError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MailError);
  const mailError = error as MailError;
  // The password must never appear in what callers log.
  expect(mailError.message).not.toContain(PASSWORD);
  expect(mailError.message).not.toContain(encodeURIComponent(PASSWORD));
  return mailError;
}

describe('SMTP mailer', () => {
  it('logs in with the URL credentials and delivers the message to the recipient', async () => {
    const logged: Array<{ obj: object; msg: string }> = [];
    const mail = createSmtpMailer({ url: url(), from: FROM, log: { info: (obj, msg) => logged.push({ obj, msg }) } });
    expect(mail.kind).toBe('smtp');
    const { id } = await mail.send({
      to: 'anna@example.com',
      subject: 'Вы подписались на рассылку Vitrina',
      text: 'Здравствуйте!\nСпасибо за подписку.',
      html: '<p>Здравствуйте!</p>',
      tag: 'newsletter-welcome',
    });

    expect(received).toHaveLength(1);
    const [message] = received;
    expect(message?.user).toBe(USER);
    expect(message?.mailFrom).toBe('hello@vitrina.ru');
    expect(message?.rcptTo).toEqual(['anna@example.com']);
    expect(message?.mail).toMatchObject({
      from: FROM,
      to: 'anna@example.com',
      subject: 'Вы подписались на рассылку Vitrina',
      text: 'Здравствуйте!\nСпасибо за подписку.',
      html: '<p>Здравствуйте!</p>',
    });
    expect(message?.mail.headers['message-id']).toBe(id);
    // The tag is ours: it never leaves the shop.
    expect(message?.raw.toString('latin1')).not.toMatch(/newsletter-welcome/);

    expect(logged).toHaveLength(1);
    const line = JSON.stringify(logged);
    expect(line).not.toContain('anna@example.com');
    expect(line).not.toContain('Спасибо');
    expect(logged[0]?.obj).toMatchObject({
      mail: { provider: 'smtp', id, to: 'a***@example.com', tag: 'newsletter-welcome' },
    });
  });

  it('maps refused credentials to a non-retryable auth error, without the password', async () => {
    const mail = createSmtpMailer({ url: url('wrong-password'), from: FROM });
    const error = await sendError(mail.send({ to: 'anna@example.com', subject: 'Тема', text: 'Текст', tag: 't' }));
    expect(error).toMatchObject({ code: 'auth', retryable: false });
    expect(received).toHaveLength(0);
  });

  it('maps a permanent refusal of the recipient (550) to a non-retryable rejection', async () => {
    refuseRecipient = { message: 'No such user', responseCode: 550 };
    const mail = createSmtpMailer({ url: url(), from: FROM });
    const error = await sendError(mail.send({ to: 'nobody@example.com', subject: 'Тема', text: 'Текст', tag: 't' }));
    expect(error).toMatchObject({ code: 'rejected', retryable: false, responseCode: 550 });
    expect(received).toHaveLength(0);
  });

  it('maps a transient refusal (450) to a retryable error', async () => {
    refuseRecipient = { message: 'Mailbox busy', responseCode: 450 };
    const mail = createSmtpMailer({ url: url(), from: FROM });
    const error = await sendError(mail.send({ to: 'anna@example.com', subject: 'Тема', text: 'Текст', tag: 't' }));
    expect(error).toMatchObject({ code: 'unavailable', retryable: true, responseCode: 450 });
  });

  it('maps an unreachable server to a retryable network error', async () => {
    // A port that was just free: nothing listens there.
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const freePort = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));

    const mail = createSmtpMailer({ url: `smtp://127.0.0.1:${freePort}`, from: FROM });
    const error = await sendError(mail.send({ to: 'anna@example.com', subject: 'Тема', text: 'Текст', tag: 't' }));
    expect(error).toMatchObject({ code: 'network', retryable: true });
  });

  it('gives up on a server that never greets with a retryable timeout', async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const mail = createSmtpMailer({
        url: `smtp://127.0.0.1:${(silent.address() as AddressInfo).port}`,
        from: FROM,
        timeoutMs: 200,
      });
      const started = Date.now();
      const error = await sendError(mail.send({ to: 'anna@example.com', subject: 'Тема', text: 'Текст', tag: 't' }));
      expect(error).toMatchObject({ code: 'timeout', retryable: true });
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('refuses a malformed message without connecting', async () => {
    const mail = createSmtpMailer({ url: url(), from: FROM });
    const error = await sendError(
      mail.send({ to: 'anna@example.com\r\nBcc: all@example.com', subject: 'Тема', text: 'Текст', tag: 't' }),
    );
    expect(error).toMatchObject({ code: 'invalid_message', retryable: false });
    expect(received).toHaveLength(0);
  });
});
