import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { parseEml } from './eml';
import { assertSendable, messageIdFor } from './mail';
import type { MailLogger, MailMessage, MailSender } from './mail';

// The offline stand-in: nothing leaves the machine; each message becomes one RFC 5322 file
// <outboxDir>/mail/<time>-<id>.eml (any mail client opens it; people and tests read it) and
// one log line.

export const MAIL_OUTBOX_DIR = 'mail';
/** Offline files carry the message's tag here; the real sender never sends it. */
export const TAG_HEADER = 'X-Vitrina-Tag';

export interface OutboxMail {
  /** The id `send` answered, also the file's name without the time and extension. */
  id: string;
  /** ISO 8601 time the message was "sent", to the millisecond (from the file name). */
  at: string;
  file: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  tag: string | null;
  /** Every header, names lower-cased, values decoded. */
  headers: Record<string, string>;
}

export interface OfflineMailOptions {
  /** The outbox root (DATA_DIR/outbox); messages go to its `mail/` folder. */
  outboxDir: string;
  /** The From header, e.g. 'Vitrina <hello@vitrina.ru>'. */
  from: string;
  log?: MailLogger;
}

/**
 * The message as RFC 5322 bytes (CRLF line ends, non-ASCII headers as encoded words). nodemailer
 * is loaded with the first message, not at start.
 */
export async function composeMail(
  message: MailMessage,
  options: { from: string; messageId: string; date: Date; headers?: Record<string, string> },
): Promise<Buffer> {
  const { default: MailComposer } = await import('nodemailer/lib/mail-composer');
  const composer = new MailComposer({
    from: options.from,
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
    messageId: options.messageId,
    date: options.date,
    headers: options.headers,
    // The files are read from disk: a message must never pull in a local file or a URL.
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return composer.compile().build();
}

/** The domain of the From address, for Message-IDs. */
function fromDomain(from: string): string {
  return /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'vitrina.local';
}

// Each message of this process gets a later millisecond than the one before, so names sort
// in sending order even for messages sent in the same instant.
let lastStamp = 0;
function nextStamp(): Date {
  lastStamp = Math.max(Date.now(), lastStamp + 1);
  return new Date(lastStamp);
}

export function createOfflineMail(options: OfflineMailOptions): MailSender {
  const dir = path.join(path.resolve(options.outboxDir), MAIL_OUTBOX_DIR);
  const log = options.log;
  const domain = fromDomain(options.from);

  return {
    kind: 'offline',
    async send(message: MailMessage) {
      assertSendable(message);
      const uuid = randomUUID();
      const id = `offline-${uuid}`;
      const date = nextStamp();
      const raw = await composeMail(message, {
        from: options.from,
        messageId: messageIdFor(domain, message.idempotencyKey, () => uuid),
        date,
        headers: { ...message.headers, [TAG_HEADER]: message.tag },
      });
      // The time first, so a folder listing is in sending order; ':' is not allowed everywhere.
      const name = `${date.toISOString().replace(/[:.]/g, '-')}-${id}.eml`;
      const file = path.join(dir, name);
      await fs.mkdir(dir, { recursive: true });
      // Readers list *.eml: a half-written message is never one of them.
      const temp = path.join(dir, `.${name}.tmp`);
      await fs.writeFile(temp, raw);
      await fs.rename(temp, file);
      // The text is in the log on purpose: offline, the log is where a developer reads it.
      log?.info(
        { mail: { id, to: message.to, subject: message.subject, tag: message.tag, file } },
        `Mail (offline) to ${message.to}: ${message.subject}\n${message.text}`,
      );
      return { id };
    },
  };
}

/**
 * Every message in the outbox, oldest first. A missing folder is an empty outbox; files that
 * are not `.eml` (a write in progress) are skipped.
 */
export async function readMailOutbox(outboxDir: string): Promise<OutboxMail[]> {
  const dir = path.join(path.resolve(outboxDir), MAIL_OUTBOX_DIR);
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const messages: OutboxMail[] = [];
  for (const name of names.filter((n) => n.endsWith('.eml') && !n.startsWith('.')).sort()) {
    const file = path.join(dir, name);
    const parsed = parseEml(await fs.readFile(file));
    const date = new Date(parsed.headers.date ?? '');
    const id = /(offline-[0-9a-f-]{36})\.eml$/.exec(name)?.[1] ?? name.replace(/\.eml$/, '');
    // The Date header has whole seconds; the file name keeps the milliseconds.
    const stamp = /^(\d{4}-\d{2}-\d{2}T\d{2})-(\d{2})-(\d{2})-(\d{3})Z/.exec(name);
    const at = stamp
      ? `${stamp[1]}:${stamp[2]}:${stamp[3]}.${stamp[4]}Z`
      : Number.isNaN(date.getTime())
        ? ''
        : date.toISOString();
    messages.push({
      id,
      at,
      file,
      from: parsed.from,
      to: parsed.to,
      subject: parsed.subject,
      text: parsed.text,
      html: parsed.html,
      tag: parsed.headers[TAG_HEADER.toLowerCase()] ?? null,
      headers: parsed.headers,
    });
  }
  return messages;
}

/** The newest message to an address (optionally of one tag): where a test finds a confirmation or a code. */
export async function lastMailTo(outboxDir: string, to: string, tag?: string): Promise<OutboxMail | undefined> {
  const messages = await readMailOutbox(outboxDir);
  const wanted = to.toLowerCase();
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m && m.to.toLowerCase() === wanted && (tag === undefined || m.tag === tag)) return m;
  }
  return undefined;
}
