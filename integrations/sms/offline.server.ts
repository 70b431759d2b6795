import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { assertSendable, SmsError } from './sms';
import type { SmsGateway, SmsLogger, SmsMessage } from './sms';

// The offline stand-in: nothing leaves the machine; each message becomes one JSON line in
// <outboxDir>/sms.jsonl (people and tests read login codes from there) and one log line.

export interface OutboxSms {
  id: string;
  /** ISO 8601 time the message was "sent". */
  at: string;
  phone: string;
  text: string;
  tag: string | null;
  /** The message's idempotency key, when it had one. */
  key?: string;
}

export const SMS_OUTBOX_FILE = 'sms.jsonl';

export interface OfflineSmsOptions {
  outboxDir: string;
  log?: SmsLogger;
  /** Numbers refused as SMS.ru refuses them (status 207), to exercise failure paths offline. */
  rejectPhones?: Iterable<string>;
}

// One write queue per outbox file for the whole process: two gateways over the same folder
// still never interleave their lines.
const queues = new Map<string, Promise<unknown>>();

function enqueue<T>(file: string, task: () => Promise<T>): Promise<T> {
  const previous = queues.get(file) ?? Promise.resolve();
  const run = previous.then(task, task);
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  queues.set(file, tail);
  // Forget the queue once idle so the map does not grow with every folder ever used (tests).
  void tail.then(() => {
    if (queues.get(file) === tail) queues.delete(file);
  });
  return run;
}

/** True when the file is missing, empty or ends with a newline. */
async function endsCleanly(file: string): Promise<boolean> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
  try {
    const { size } = await handle.stat();
    if (size === 0) return true;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    await handle.close();
  }
}

export function createOfflineSms(options: OfflineSmsOptions): SmsGateway {
  const outboxDir = path.resolve(options.outboxDir);
  const file = path.join(outboxDir, SMS_OUTBOX_FILE);
  const rejected = new Set(options.rejectPhones ?? []);
  const log = options.log;

  return {
    kind: 'offline',
    async send(message: SmsMessage) {
      assertSendable(message);
      if (rejected.has(message.phone)) {
        log?.info(
          { sms: { phone: message.phone, tag: message.tag ?? null } },
          'SMS (offline) refused: number not allowed',
        );
        throw new SmsError('SMS.ru refused the number (status_code 207)', {
          code: 'phone_not_allowed',
          retryable: false,
          providerCode: 207,
        });
      }
      const record: OutboxSms = {
        id: `offline-${randomUUID()}`,
        at: new Date().toISOString(),
        phone: message.phone,
        text: message.text,
        tag: message.tag ?? null,
        // The send path's idempotency key (models/sent-messages.server.ts), as a provider would keep a client id.
        ...(message.idempotencyKey ? { key: message.idempotencyKey } : {}),
      };
      const line = `${JSON.stringify(record)}\n`;
      await enqueue(file, async () => {
        await fs.mkdir(outboxDir, { recursive: true });
        // A crash mid-write may have left a torn last line; start ours on a fresh line so
        // only the torn record is lost, not this one as well.
        const prefix = (await endsCleanly(file)) ? '' : '\n';
        // One append of the whole line (O_APPEND) also keeps other processes' lines whole.
        await fs.appendFile(file, prefix + line, { encoding: 'utf8', flag: 'a' });
      });
      // The code is in the log on purpose: offline, the log is where a developer reads it.
      log?.info({ sms: record }, `SMS (offline) to ${record.phone}: ${record.text}`);
      return { id: record.id };
    },
  };
}

function isOutboxSms(value: unknown): value is OutboxSms {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.id === 'string' &&
    typeof v.at === 'string' &&
    typeof v.phone === 'string' &&
    typeof v.text === 'string' &&
    (v.tag === null || v.tag === undefined || typeof v.tag === 'string')
  );
}

/**
 * Every whole message in the outbox, oldest first. A missing file is an empty outbox; lines
 * that do not parse (a write torn by a crash) are skipped rather than failing the reader.
 */
export async function readSmsOutbox(outboxDir: string): Promise<OutboxSms[]> {
  let content: string;
  try {
    content = await fs.readFile(path.join(path.resolve(outboxDir), SMS_OUTBOX_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const messages: OutboxSms[] = [];
  for (const line of content.split('\n')) {
    if (line.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      continue;
    }
    if (isOutboxSms(parsed)) messages.push({ ...parsed, tag: parsed.tag ?? null });
  }
  return messages;
}

/** The newest message to a number (optionally of one tag): where a test finds the login code. */
export async function lastSmsTo(outboxDir: string, phone: string, tag?: string): Promise<OutboxSms | undefined> {
  const messages = await readSmsOutbox(outboxDir);
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m && m.phone === phone && (tag === undefined || m.tag === tag)) return m;
  }
  return undefined;
}
