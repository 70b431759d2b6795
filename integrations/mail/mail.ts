import { createHash } from 'node:crypto';

// The mail seam: confirmations and notices go out through this interface, never straight to a
// provider, so a machine with no internet (dev, CI) runs the same code paths as production.

export interface MailMessage {
  /** One plain address, e.g. anna@example.com (no display name, no list). */
  to: string;
  subject: string;
  /** The plain-text body; every message has one. */
  text: string;
  /** An HTML alternative of the same text. */
  html?: string;
  /** What the message is for (e.g. 'newsletter-welcome'); recorded in logs and the outbox, not sent. */
  tag: string;
  /**
   * Unique per order (or other subject), kind and recipient: the send path records it and sends
   * a key once (models/sent-messages.server.ts); the letter's Message-ID is made from it, so a
   * server or mailbox that has it already can drop a copy.
   */
  idempotencyKey?: string;
  /** Extra headers, sent as given (e.g. List-Unsubscribe and List-Unsubscribe-Post of a marketing letter). */
  headers?: Readonly<Record<string, string>>;
}

/** The Message-ID of a letter: from its idempotency key when it has one (a hash: the key names the recipient), else random. */
export function messageIdFor(domain: string, idempotencyKey: string | undefined, random: () => string): string {
  if (!idempotencyKey) return `<${random()}@${domain}>`;
  return `<${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 40)}@${domain}>`;
}

export interface MailSender {
  readonly kind: 'offline' | 'smtp';
  /** Resolves with the message id once the provider accepted the message. */
  send(message: MailMessage): Promise<{ id: string }>;
}

/** A pino-like logger; only `info` is used. */
export interface MailLogger {
  info(obj: object, msg: string): void;
}

export type MailErrorCode =
  | 'invalid_message' // a malformed address or an empty subject/text: fix the caller, do not retry
  | 'auth' // the SMTP server refused our credentials (configuration)
  | 'rejected' // the server refused the message or the recipient (5xx)
  | 'unavailable' // the server said "try later" (4xx)
  | 'timeout' // no answer in time; the message may still have been sent
  | 'network'; // could not reach the server

export class MailError extends Error {
  override readonly name = 'MailError';
  readonly code: MailErrorCode;
  /** True when sending the same message again later may succeed. */
  readonly retryable: boolean;
  /** The SMTP reply code, when the server gave one. */
  readonly responseCode: number | undefined;

  constructor(
    message: string,
    options: { code: MailErrorCode; retryable: boolean; responseCode?: number; cause?: unknown },
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code;
    this.retryable = options.retryable;
    this.responseCode = options.responseCode;
  }
}

// Deliberately plain: one local part, one domain with a dot, nothing that could end a header.
const ADDRESS = /^[^\s@<>()[\],;:"\\]+@[^\s@<>()[\],;:"\\]+\.[^\s@<>()[\],;:"\\]+$/;

/** Both implementations refuse the same malformed input, so offline runs catch caller bugs too. */
export function assertSendable(message: MailMessage): void {
  if (typeof message.to !== 'string' || message.to.length > 254 || !ADDRESS.test(message.to)) {
    throw new MailError('Mail recipient must be one plain address', { code: 'invalid_message', retryable: false });
  }
  if (typeof message.subject !== 'string' || message.subject.trim() === '' || /[\r\n]/.test(message.subject)) {
    throw new MailError('Mail subject must be one non-empty line', { code: 'invalid_message', retryable: false });
  }
  if (typeof message.text !== 'string' || message.text.trim() === '') {
    throw new MailError('Mail text is empty', { code: 'invalid_message', retryable: false });
  }
  for (const [name, value] of Object.entries(message.headers ?? {})) {
    // A line break would start a header (or the body) of the caller's choosing.
    if (!/^[A-Za-z][A-Za-z0-9-]*$/.test(name) || typeof value !== 'string' || /[\r\n]/.test(value)) {
      throw new MailError('Mail header must be a name and one line', { code: 'invalid_message', retryable: false });
    }
  }
}

/** For logs of real sends: enough to tell addresses apart, not enough to identify the shopper. */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 1) return '***';
  return `${address[0]}***${address.slice(at)}`;
}
