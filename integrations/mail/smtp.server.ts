import { randomUUID } from 'node:crypto';
import type { Transporter } from 'nodemailer';
import { assertSendable, MailError, maskEmail, messageIdFor } from './mail';
import type { MailErrorCode, MailLogger, MailMessage, MailSender } from './mail';

// The real sender: nodemailer's SMTP transport, one connection a message (a shop's volume of
// confirmations does not need a pool), settings from one smtp:// or smtps:// URL.

export const SMTP_DEFAULT_TIMEOUT_MS = 15_000;

export interface SmtpMailOptions {
  /** smtp://user:pass@host:587 (STARTTLS when offered) or smtps://user:pass@host:465 (TLS from the start). */
  url: string;
  /** The From header, e.g. 'Vitrina <hello@vitrina.ru>'. */
  from: string;
  /** For connecting, the greeting and each reply. */
  timeoutMs?: number;
  log?: MailLogger;
}

/** The SMTP password in the URL, as written and as decoded, so it can be cut out of any text. */
function secretsOf(url: string): string[] {
  try {
    const password = new URL(url).password;
    return password ? [...new Set([password, decodeURIComponent(password)])] : [];
  } catch {
    return [];
  }
}

function classify(error: { code?: unknown; responseCode?: unknown }): { code: MailErrorCode; retryable: boolean } {
  const responseCode = typeof error.responseCode === 'number' ? error.responseCode : undefined;
  switch (error.code) {
    case 'EAUTH':
    case 'ENOAUTH':
      return { code: 'auth', retryable: false };
    case 'ETIMEDOUT':
      return { code: 'timeout', retryable: true };
    case 'ECONNECTION':
    case 'ESOCKET':
    case 'EDNS':
    case 'ETLS':
    case 'EPROXY':
      return { code: 'network', retryable: true };
  }
  // RFC 5321: 4yz replies are transient, 5yz permanent.
  if (responseCode !== undefined && responseCode >= 400 && responseCode < 500)
    return { code: 'unavailable', retryable: true };
  return { code: 'rejected', retryable: false };
}

export function createSmtpMailer(options: SmtpMailOptions): MailSender {
  if (!/^smtps?:\/\//i.test(options.url)) throw new Error('SMTP mailer needs an smtp:// or smtps:// URL');
  const timeoutMs = options.timeoutMs ?? SMTP_DEFAULT_TIMEOUT_MS;
  const secrets = secretsOf(options.url);
  const redact = (text: string) => secrets.reduce((t, s) => t.split(s).join('***'), text);
  const log = options.log;
  const domain = /@([^>\s]+)>?\s*$/.exec(options.from)?.[1] ?? 'vitrina.local';

  // Made with the first message: nodemailer is not loaded at start.
  let transport: Promise<Transporter> | null = null;
  const transportNow = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        url: options.url,
        connectionTimeout: timeoutMs,
        greetingTimeout: timeoutMs,
        socketTimeout: timeoutMs,
        // nodemailer's own logging would print the SMTP dialogue; ours is one line a message.
        logger: false,
        disableFileAccess: true,
        disableUrlAccess: true,
      }),
    ));

  return {
    kind: 'smtp',
    async send(message: MailMessage) {
      assertSendable(message);
      let info: { messageId?: unknown; accepted?: unknown; response?: unknown };
      try {
        info = await (
          await transportNow()
        ).sendMail({
          from: options.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          messageId: messageIdFor(domain, message.idempotencyKey, randomUUID),
          ...(message.headers ? { headers: { ...message.headers } } : {}),
        });
      } catch (error) {
        const e = error as { code?: unknown; responseCode?: unknown; message?: unknown };
        const responseCode = typeof e.responseCode === 'number' ? e.responseCode : undefined;
        throw new MailError(
          redact(`SMTP: ${typeof e.message === 'string' ? e.message.slice(0, 300) : 'sending failed'}`),
          {
            ...classify(e),
            responseCode,
          },
        );
      }
      const id = typeof info.messageId === 'string' ? info.messageId : '';
      // Never the text or the subject: either may carry a login code.
      log?.info({ mail: { provider: 'smtp', id, to: maskEmail(message.to), tag: message.tag } }, 'Mail sent via SMTP');
      return { id };
    },
  };
}
