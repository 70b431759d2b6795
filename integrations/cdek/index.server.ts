import path from 'node:path';
import { z } from 'zod';
import { CDEK_DEFAULT_BASE_URL, CDEK_DEFAULT_TIMEOUT_MS, createCdekClient, type CdekLogger } from './cdek.server';
import { createOfflineCdek } from './offline.server';
import type { CdekClient } from './cdek';

export type {
  CdekClient,
  CdekDeliveryPoint,
  CdekLocation,
  CdekOrderItem,
  CdekOrderRequest,
  CdekOrderState,
  CdekPackage,
  TariffListItem,
  TariffRequest,
  TariffResult,
} from './cdek';
export { CDEK_TARIFF, CdekError } from './cdek';
export { CDEK_DEFAULT_BASE_URL, CDEK_TEST_BASE_URL } from './cdek.server';
export { CDEK_OUTBOX_FILE, readCdekOutbox } from './offline.server';

/** Moscow: where the shop's warehouse is (INTEGRATIONS.md §2). */
export const CDEK_MOSCOW_CITY_CODE = 44;

// Empty variables (`CDEK_CLIENT_ID=` in a .env file) mean "not set", as in server/env.server.ts.
const optionalText = z
  .string()
  .trim()
  .min(1)
  .optional()
  .or(z.literal('').transform(() => undefined));

const cityCodes = z
  .string()
  .regex(/^\s*(\d{1,7}\s*(,\s*\d{1,7}\s*)*)?$/, 'must be CDEK city codes, comma-separated')
  .default('')
  .transform((v) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .map(Number),
  );

/** The fields alone, for spreading into the app's environment schema (`z.object({...base, ...cdekConfigShape})`). */
export const cdekConfigShape = {
  CDEK_PROVIDER: z.enum(['offline', 'cdek']).default('offline'),
  CDEK_CLIENT_ID: optionalText,
  CDEK_CLIENT_SECRET: optionalText,
  CDEK_BASE_URL: z
    .string()
    .regex(/^https?:\/\/[^/\s]+/i, 'must be an http(s) URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  CDEK_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(CDEK_DEFAULT_TIMEOUT_MS),
  CDEK_FROM_CITY_CODE: z.coerce.number().int().min(1).max(9_999_999).default(CDEK_MOSCOW_CITY_CODE),
  /** Offline only: destinations whose tariff calculation fails like an outage, to try error paths. */
  CDEK_OFFLINE_FAIL_CITIES: cityCodes,
};

interface CdekConfigCheckInput {
  CDEK_PROVIDER: 'offline' | 'cdek';
  CDEK_CLIENT_ID?: string | undefined;
  CDEK_CLIENT_SECRET?: string | undefined;
}

/** The cross-field rule, for reuse when the fields are merged into a bigger schema. */
export function refineCdekConfig(config: CdekConfigCheckInput, ctx: z.RefinementCtx): void {
  if (config.CDEK_PROVIDER !== 'cdek') return;
  for (const field of ['CDEK_CLIENT_ID', 'CDEK_CLIENT_SECRET'] as const) {
    if (!config[field]) ctx.addIssue({ code: 'custom', path: [field], message: 'is required when CDEK_PROVIDER=cdek' });
  }
}

export const cdekConfigSchema = z.object(cdekConfigShape).superRefine(refineCdekConfig);

export type CdekConfig = z.output<typeof cdekConfigSchema>;

export interface CdekDeps {
  log?: CdekLogger & { info(obj: object, msg: string): void };
  /** DATA_DIR, resolved: the offline stand-in writes registered orders to `<dataDir>/outbox/cdek.jsonl`. */
  dataDir?: string;
}

export function createCdek(config: CdekConfig, deps: CdekDeps = {}): CdekClient {
  if (config.CDEK_PROVIDER === 'cdek') {
    // The schema's refinement guarantees these; the check keeps a hand-built config honest.
    if (!config.CDEK_CLIENT_ID || !config.CDEK_CLIENT_SECRET)
      throw new Error('CDEK_CLIENT_ID and CDEK_CLIENT_SECRET are required when CDEK_PROVIDER=cdek');
    return createCdekClient({
      clientId: config.CDEK_CLIENT_ID,
      clientSecret: config.CDEK_CLIENT_SECRET,
      baseUrl: config.CDEK_BASE_URL ?? CDEK_DEFAULT_BASE_URL,
      timeoutMs: config.CDEK_TIMEOUT_MS,
      log: deps.log,
    });
  }
  return createOfflineCdek({
    outboxDir: deps.dataDir ? path.join(deps.dataDir, 'outbox') : undefined,
    failCities: config.CDEK_OFFLINE_FAIL_CITIES,
    log: deps.log,
  });
}
