import { z } from 'zod';
import { createOfflineYandexSplit, type OfflineYandexSplit } from './offline.server';
import {
  createYandexSplitClient,
  remoteJwks,
  YANDEX_SPLIT_DEFAULT_BASE_URL,
  YANDEX_SPLIT_DEFAULT_JWKS_URL,
  YANDEX_SPLIT_DEFAULT_TIMEOUT_MS,
  type JwksSource,
} from './yandex-split.server';
import type { YandexSplitClient, YandexSplitLogger } from './yandex-split';

export type { SplitOrder, SplitPaymentStatus, YandexSplitClient } from './yandex-split';
export { SPLIT_CAPTURABLE, SPLIT_DECLINED, SPLIT_PAID, YANDEX_SPLIT_PROVIDER, YandexSplitError } from './yandex-split';
export { verifySplitWebhook, type JwksSource, type SplitWebhook } from './yandex-split.server';
export type { OfflineYandexSplit } from './offline.server';

const optionalText = z
  .string()
  .trim()
  .min(1)
  .optional()
  .or(z.literal('').transform(() => undefined));

export const yandexSplitConfigShape = {
  YANDEX_SPLIT_PROVIDER: z.enum(['offline', 'real']).default('offline'),
  /** The merchant API key (in the sandbox it is the merchant id). */
  YANDEX_SPLIT_API_KEY: optionalText,
  /** Webhooks must name this merchant. */
  YANDEX_SPLIT_MERCHANT_ID: optionalText,
  /** https://pay.yandex.ru/api/merchant/v1, or the sandbox's https://sandbox.pay.yandex.ru/api/merchant/v1. */
  YANDEX_SPLIT_BASE_URL: optionalText,
  /** Yandex's webhook keys: https://pay.yandex.ru/api/jwks (sandbox: https://sandbox.pay.yandex.ru/api/jwks). */
  YANDEX_SPLIT_JWKS_URL: optionalText,
  YANDEX_SPLIT_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(YANDEX_SPLIT_DEFAULT_TIMEOUT_MS),
};

export function refineYandexSplitConfig(
  config: {
    YANDEX_SPLIT_PROVIDER: 'offline' | 'real';
    YANDEX_SPLIT_API_KEY?: string | undefined;
    YANDEX_SPLIT_MERCHANT_ID?: string | undefined;
  },
  ctx: z.RefinementCtx,
): void {
  if (config.YANDEX_SPLIT_PROVIDER !== 'real') return;
  for (const field of ['YANDEX_SPLIT_API_KEY', 'YANDEX_SPLIT_MERCHANT_ID'] as const) {
    if (!config[field])
      ctx.addIssue({ code: 'custom', path: [field], message: 'is required when YANDEX_SPLIT_PROVIDER=real' });
  }
}

export const yandexSplitConfigSchema = z.object(yandexSplitConfigShape).superRefine(refineYandexSplitConfig);
export type YandexSplitConfig = z.output<typeof yandexSplitConfigSchema>;

export interface YandexSplit {
  client: YandexSplitClient;
  offline: OfflineYandexSplit | null;
  merchantId: string;
  /** The keys webhooks are verified with. */
  keys: JwksSource;
}

export function createYandexSplit(
  config: YandexSplitConfig,
  deps: { pagePath: string; log?: YandexSplitLogger },
): YandexSplit {
  if (config.YANDEX_SPLIT_PROVIDER === 'real') {
    if (!config.YANDEX_SPLIT_API_KEY || !config.YANDEX_SPLIT_MERCHANT_ID)
      throw new Error('YANDEX_SPLIT_API_KEY and YANDEX_SPLIT_MERCHANT_ID are required when YANDEX_SPLIT_PROVIDER=real');
    return {
      client: createYandexSplitClient({
        apiKey: config.YANDEX_SPLIT_API_KEY,
        baseUrl: config.YANDEX_SPLIT_BASE_URL ?? YANDEX_SPLIT_DEFAULT_BASE_URL,
        timeoutMs: config.YANDEX_SPLIT_TIMEOUT_MS,
        ...(deps.log ? { log: deps.log } : {}),
      }),
      offline: null,
      merchantId: config.YANDEX_SPLIT_MERCHANT_ID,
      keys: remoteJwks(config.YANDEX_SPLIT_JWKS_URL ?? YANDEX_SPLIT_DEFAULT_JWKS_URL),
    };
  }
  const offline = createOfflineYandexSplit({
    pagePath: deps.pagePath,
    merchantId: config.YANDEX_SPLIT_MERCHANT_ID,
    log: deps.log,
  });
  return { client: offline, offline, merchantId: offline.merchantId, keys: offline.keys };
}
