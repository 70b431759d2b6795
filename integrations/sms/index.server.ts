import path from 'node:path';
import { z } from 'zod';
import { createOfflineSms } from './offline.server';
import { createSmsRuClient, SMSRU_DEFAULT_TIMEOUT_MS } from './smsru.server';
import type { SmsGateway, SmsLogger } from './sms';

export type { SmsErrorCode, SmsGateway, SmsLogger, SmsMessage } from './sms';
export { SmsError } from './sms';
export type { OutboxSms } from './offline.server';
export { lastSmsTo, readSmsOutbox, SMS_OUTBOX_FILE } from './offline.server';

// Empty variables (`SMSRU_FROM=` in a .env file) mean "not set", as in server/env.server.ts.
const optionalText = z
  .string()
  .trim()
  .min(1)
  .optional()
  .or(z.literal('').transform(() => undefined));

const flag = z
  .enum(['true', 'false', '1', '0'])
  .default('false')
  .transform((v) => v === 'true' || v === '1');

/** The fields alone, for spreading into the app's environment schema (`z.object({...base, ...smsConfigShape})`). */
export const smsConfigShape = {
  SMS_PROVIDER: z.enum(['offline', 'smsru']).default('offline'),
  SMSRU_API_ID: optionalText,
  SMSRU_FROM: optionalText,
  SMSRU_BASE_URL: z
    .string()
    .regex(/^https?:\/\/[^/\s]+/i, 'must be an http(s) URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  SMSRU_TEST: flag,
  SMSRU_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(SMSRU_DEFAULT_TIMEOUT_MS),
  // Comma-separated numbers the offline gateway refuses like SMS.ru's 207, for trying failure paths.
  SMS_OFFLINE_REJECT_PHONES: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^\d{10,15}$/, 'must be comma-separated phone numbers, digits only'))),
};

interface SmsConfigCheckInput {
  SMS_PROVIDER: 'offline' | 'smsru';
  SMSRU_API_ID?: string | undefined;
}

/** The cross-field rule, for reuse when the fields are merged into a bigger schema. */
export function refineSmsConfig(config: SmsConfigCheckInput, ctx: z.RefinementCtx): void {
  if (config.SMS_PROVIDER === 'smsru' && !config.SMSRU_API_ID) {
    ctx.addIssue({ code: 'custom', path: ['SMSRU_API_ID'], message: 'is required when SMS_PROVIDER=smsru' });
  }
}

export const smsConfigSchema = z.object(smsConfigShape).superRefine(refineSmsConfig);

export type SmsConfig = z.output<typeof smsConfigSchema>;

export interface SmsGatewayDeps {
  /** DATA_DIR, resolved; the offline outbox is `<dataDir>/outbox/sms.jsonl`. */
  dataDir: string;
  log?: SmsLogger;
}

export function createSmsGateway(config: SmsConfig, deps: SmsGatewayDeps): SmsGateway {
  if (config.SMS_PROVIDER === 'smsru') {
    // The schema's refinement guarantees this; the check keeps a hand-built config honest.
    if (!config.SMSRU_API_ID) throw new Error('SMSRU_API_ID is required when SMS_PROVIDER=smsru');
    return createSmsRuClient({
      apiId: config.SMSRU_API_ID,
      from: config.SMSRU_FROM,
      baseUrl: config.SMSRU_BASE_URL,
      test: config.SMSRU_TEST,
      timeoutMs: config.SMSRU_TIMEOUT_MS,
      log: deps.log,
    });
  }
  return createOfflineSms({
    outboxDir: path.join(deps.dataDir, 'outbox'),
    log: deps.log,
    rejectPhones: config.SMS_OFFLINE_REJECT_PHONES,
  });
}
