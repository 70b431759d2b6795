import path from 'node:path';
import { z } from 'zod';
import { createOfflineMail } from './offline.server';
import { createSmtpMailer } from './smtp.server';
import type { MailLogger, MailSender } from './mail';

export type { MailErrorCode, MailLogger, MailMessage, MailSender } from './mail';
export { MailError } from './mail';
export type { OutboxMail } from './offline.server';
export { lastMailTo, MAIL_OUTBOX_DIR, readMailOutbox } from './offline.server';

export const MAIL_DEFAULT_FROM = 'Vitrina <hello@vitrina.ru>';

// `Name <address>` or a bare address; one line.
const FROM = /^(?:[^<>\r\n]*<[^<>\s@]+@[^<>\s@]+\.[^<>\s@]+>|[^<>\s@]+@[^<>\s@]+\.[^<>\s@]+)$/;

/** The fields alone, for spreading into the app's environment schema (`z.object({...base, ...mailConfigShape})`). */
export const mailConfigShape = {
  MAIL_PROVIDER: z.enum(['offline', 'smtp']).default('offline'),
  // Empty variables (`SMTP_URL=` in a .env file) mean "not set", as in server/env.server.ts.
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^/\s]+/i, 'must be an smtp:// or smtps:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  MAIL_FROM: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.string().trim().regex(FROM, 'must be an address or "Name <address>"').default(MAIL_DEFAULT_FROM),
  ),
};

interface MailConfigCheckInput {
  MAIL_PROVIDER: 'offline' | 'smtp';
  SMTP_URL?: string | undefined;
}

/** The cross-field rule, for reuse when the fields are merged into a bigger schema. */
export function refineMailConfig(config: MailConfigCheckInput, ctx: z.RefinementCtx): void {
  if (config.MAIL_PROVIDER === 'smtp' && !config.SMTP_URL) {
    ctx.addIssue({ code: 'custom', path: ['SMTP_URL'], message: 'is required when MAIL_PROVIDER=smtp' });
  }
}

export const mailConfigSchema = z.object(mailConfigShape).superRefine(refineMailConfig);

export type MailConfig = z.output<typeof mailConfigSchema>;

export interface MailSenderDeps {
  /** DATA_DIR, resolved; the offline outbox is `<dataDir>/outbox/mail/`. */
  dataDir: string;
  log?: MailLogger;
}

export function createMailSender(config: MailConfig, deps: MailSenderDeps): MailSender {
  if (config.MAIL_PROVIDER === 'smtp') {
    // The schema's refinement guarantees this; the check keeps a hand-built config honest.
    if (!config.SMTP_URL) throw new Error('SMTP_URL is required when MAIL_PROVIDER=smtp');
    return createSmtpMailer({ url: config.SMTP_URL, from: config.MAIL_FROM, log: deps.log });
  }
  return createOfflineMail({ outboxDir: path.join(deps.dataDir, 'outbox'), from: config.MAIL_FROM, log: deps.log });
}
