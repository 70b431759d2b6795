import path from 'node:path';
import { z } from 'zod';
import {
  CLOUDPAYMENTS_DEFAULT_BASE_URL,
  CLOUDPAYMENTS_DEFAULT_TIMEOUT_MS,
  createCloudPaymentsClient,
} from './cloudpayments.server';
import { createOfflineCloudPayments, type OfflineCloudPayments } from './offline.server';
import type { CloudPaymentsClient, CloudPaymentsLogger } from './cloudpayments';

export type { CloudPaymentStatus, CloudPaymentsClient, CloudPaymentsLogger, ProviderPayment } from './cloudpayments';
export { CLOUDPAYMENTS_PROVIDER, CloudPaymentsError, formatAmount, parseAmount } from './cloudpayments';
export { signBody, verifyContentHmac } from './hmac.server';
export type { NotificationKind, OfflineCloudPayments, OfflinePayment } from './offline.server';
export { CLOUDPAYMENTS_OUTBOX_FILE } from './offline.server';

export const CLOUDPAYMENTS_WIDGET_URL = 'https://widget.cloudpayments.ru/bundles/cloudpayments.js';
/** The public id the offline stand-in uses when none is set (the shape of CloudPayments' test ids). */
export const OFFLINE_PUBLIC_ID = 'test_api_00000000000000000000002';
/** Offline only: the notification-signing secret made once per DATA_DIR (0600; server/secrets.server.ts). */
export const CLOUDPAYMENTS_SECRET_FILE = 'cloudpayments-secret';
/** Offline only, when no kept secret is supplied: a fixed, public development value (never for real money). */
export const OFFLINE_DEV_SECRET = 'vitrina-offline-cloudpayments-dev-secret';

// Empty variables (`CLOUDPAYMENTS_API_SECRET=` in a .env file) mean "not set", as in server/env.server.ts.
const optionalText = z
  .string()
  .trim()
  .min(1)
  .optional()
  .or(z.literal('').transform(() => undefined));

const optionalUrl = z
  .string()
  .regex(/^(https?:\/\/[^/\s]+|\/[^\s]*)/i, 'must be an http(s) URL or a path')
  .optional()
  .or(z.literal('').transform(() => undefined));

/** The fields alone, for spreading into the app's environment schema. */
export const cloudPaymentsConfigShape = {
  CLOUDPAYMENTS_PROVIDER: z.enum(['offline', 'cloudpayments']).default('offline'),
  /** Public: it reaches the browser in the widget's parameters. */
  PUBLIC_CLOUDPAYMENTS_ID: optionalText,
  /** Signs notifications and authenticates API calls. Offline and unset: made once, kept in DATA_DIR. */
  CLOUDPAYMENTS_API_SECRET: optionalText,
  CLOUDPAYMENTS_BASE_URL: optionalUrl,
  /** Where the browser loads the widget from; unset: CloudPayments' host, or the offline stand-in's script. */
  CLOUDPAYMENTS_WIDGET_URL: optionalUrl,
  CLOUDPAYMENTS_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(CLOUDPAYMENTS_DEFAULT_TIMEOUT_MS),
  /** How long an unpaid card order holds its stock before it is released and cancelled. */
  PAYMENT_HOLD_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60)
    .default(30),
};

interface CloudPaymentsConfigCheckInput {
  CLOUDPAYMENTS_PROVIDER: 'offline' | 'cloudpayments';
  PUBLIC_CLOUDPAYMENTS_ID?: string | undefined;
  CLOUDPAYMENTS_API_SECRET?: string | undefined;
}

export function refineCloudPaymentsConfig(config: CloudPaymentsConfigCheckInput, ctx: z.RefinementCtx): void {
  if (config.CLOUDPAYMENTS_PROVIDER !== 'cloudpayments') return;
  for (const field of ['PUBLIC_CLOUDPAYMENTS_ID', 'CLOUDPAYMENTS_API_SECRET'] as const) {
    if (!config[field])
      ctx.addIssue({ code: 'custom', path: [field], message: 'is required when CLOUDPAYMENTS_PROVIDER=cloudpayments' });
  }
}

export const cloudPaymentsConfigSchema = z.object(cloudPaymentsConfigShape).superRefine(refineCloudPaymentsConfig);
export type CloudPaymentsConfig = z.output<typeof cloudPaymentsConfigSchema>;

/** Everything the payment routes need: the client, the keys, the widget script and the hold time. */
export interface CardPayments {
  client: CloudPaymentsClient;
  /** Set when the client is the offline stand-in: its payment page charges through it. */
  offline: OfflineCloudPayments | null;
  publicId: string;
  apiSecret: string;
  /** Configured script URL; null: the API serves the stand-in's (offline) or CloudPayments' default. */
  widgetUrl: string | null;
  holdMinutes: number;
}

export interface CardPaymentsDeps {
  /** DATA_DIR, resolved: the stand-in remembers its payments in `<dataDir>/outbox/cloudpayments.jsonl`. */
  dataDir: string;
  log?: CloudPaymentsLogger;
  /** Offline: the signing secret kept for this DATA_DIR (the server passes resolveKeptSecret's); default OFFLINE_DEV_SECRET. */
  offlineSecret?: () => string;
}

export function createCardPayments(config: CloudPaymentsConfig, deps: CardPaymentsDeps): CardPayments {
  const holdMinutes = config.PAYMENT_HOLD_MINUTES;
  if (config.CLOUDPAYMENTS_PROVIDER === 'cloudpayments') {
    if (!config.PUBLIC_CLOUDPAYMENTS_ID || !config.CLOUDPAYMENTS_API_SECRET) {
      throw new Error(
        'PUBLIC_CLOUDPAYMENTS_ID and CLOUDPAYMENTS_API_SECRET are required when CLOUDPAYMENTS_PROVIDER=cloudpayments',
      );
    }
    const client = createCloudPaymentsClient({
      publicId: config.PUBLIC_CLOUDPAYMENTS_ID,
      apiSecret: config.CLOUDPAYMENTS_API_SECRET,
      baseUrl: config.CLOUDPAYMENTS_BASE_URL ?? CLOUDPAYMENTS_DEFAULT_BASE_URL,
      timeoutMs: config.CLOUDPAYMENTS_TIMEOUT_MS,
      ...(deps.log ? { log: deps.log } : {}),
    });
    return {
      client,
      offline: null,
      publicId: config.PUBLIC_CLOUDPAYMENTS_ID,
      apiSecret: config.CLOUDPAYMENTS_API_SECRET,
      widgetUrl: config.CLOUDPAYMENTS_WIDGET_URL ?? CLOUDPAYMENTS_WIDGET_URL,
      holdMinutes,
    };
  }
  const publicId = config.PUBLIC_CLOUDPAYMENTS_ID ?? OFFLINE_PUBLIC_ID;
  const apiSecret = config.CLOUDPAYMENTS_API_SECRET ?? deps.offlineSecret?.() ?? OFFLINE_DEV_SECRET;
  const offline = createOfflineCloudPayments({
    publicId,
    apiSecret,
    outboxDir: path.join(deps.dataDir, 'outbox'),
    log: deps.log,
  });
  return {
    client: offline,
    offline,
    publicId,
    apiSecret,
    widgetUrl: config.CLOUDPAYMENTS_WIDGET_URL ?? null,
    holdMinutes,
  };
}
