import { z } from 'zod';
import { createDadataClient, DADATA_DEFAULT_TIMEOUT_MS } from './dadata.server';
import { createOfflineAddressSuggestions } from './offline.server';
import type { AddressLogger, AddressSuggestions } from './dadata';

export type {
  AddressBound,
  AddressData,
  AddressLocation,
  AddressLogger,
  AddressQuery,
  AddressSuggestion,
  AddressSuggestions,
  AddressSuggestionsResult,
} from './dadata';
export { MAX_SUGGESTION_COUNT } from './dadata';

// Empty variables (`DADATA_API_KEY=` in a .env file) mean "not set", as in server/env.server.ts.
const optionalText = z
  .string()
  .trim()
  .min(1)
  .optional()
  .or(z.literal('').transform(() => undefined));

/** The fields alone, for spreading into the app's environment schema (`z.object({...base, ...dadataConfigShape})`). */
export const dadataConfigShape = {
  DADATA_PROVIDER: z.enum(['offline', 'dadata']).default('offline'),
  DADATA_API_KEY: optionalText,
  DADATA_BASE_URL: z
    .string()
    .regex(/^https?:\/\/[^/\s]+/i, 'must be an http(s) URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  DADATA_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(DADATA_DEFAULT_TIMEOUT_MS),
};

interface DadataConfigCheckInput {
  DADATA_PROVIDER: 'offline' | 'dadata';
  DADATA_API_KEY?: string | undefined;
}

/** The cross-field rule, for reuse when the fields are merged into a bigger schema. */
export function refineDadataConfig(config: DadataConfigCheckInput, ctx: z.RefinementCtx): void {
  if (config.DADATA_PROVIDER === 'dadata' && !config.DADATA_API_KEY) {
    ctx.addIssue({ code: 'custom', path: ['DADATA_API_KEY'], message: 'is required when DADATA_PROVIDER=dadata' });
  }
}

export const dadataConfigSchema = z.object(dadataConfigShape).superRefine(refineDadataConfig);

export type DadataConfig = z.output<typeof dadataConfigSchema>;

export function createAddressSuggestions(config: DadataConfig, deps: { log?: AddressLogger } = {}): AddressSuggestions {
  if (config.DADATA_PROVIDER === 'dadata') {
    // The schema's refinement guarantees this; the check keeps a hand-built config honest.
    if (!config.DADATA_API_KEY) throw new Error('DADATA_API_KEY is required when DADATA_PROVIDER=dadata');
    return createDadataClient({
      apiKey: config.DADATA_API_KEY,
      baseUrl: config.DADATA_BASE_URL,
      timeoutMs: config.DADATA_TIMEOUT_MS,
      log: deps.log,
    });
  }
  return createOfflineAddressSuggestions();
}
