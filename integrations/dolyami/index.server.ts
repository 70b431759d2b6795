import path from 'node:path';
import { z } from 'zod';
import {
  createDolyamiClient,
  DOLYAMI_DEFAULT_BASE_URL,
  DOLYAMI_DEFAULT_TIMEOUT_MS,
  readTlsFiles,
} from './dolyami.server';
import { createOfflineDolyami, type OfflineDolyami } from './offline.server';
import type { DolyamiClient, DolyamiLogger } from './dolyami';

export type { DolyamiClient, DolyamiItem, DolyamiOrder, DolyamiStatus } from './dolyami';
export { DOLYAMI_COMMITTABLE, DOLYAMI_DECLINED, DOLYAMI_PAID, DOLYAMI_PROVIDER, DolyamiError } from './dolyami';
export type { OfflineDolyami } from './offline.server';

// Empty variables mean "not set", as in server/env.server.ts.
const optionalText = z
  .string()
  .trim()
  .min(1)
  .optional()
  .or(z.literal('').transform(() => undefined));

export const dolyamiConfigShape = {
  DOLYAMI_PROVIDER: z.enum(['offline', 'real']).default('offline'),
  DOLYAMI_LOGIN: optionalText,
  DOLYAMI_PASSWORD: optionalText,
  /** T-Bank's client certificate and key for mutual TLS (PEM files), and a CA bundle if needed. */
  DOLYAMI_CERT_PATH: optionalText,
  DOLYAMI_KEY_PATH: optionalText,
  DOLYAMI_CA_PATH: optionalText,
  DOLYAMI_BASE_URL: optionalText,
  DOLYAMI_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(DOLYAMI_DEFAULT_TIMEOUT_MS),
};

export function refineDolyamiConfig(
  config: {
    DOLYAMI_PROVIDER: 'offline' | 'real';
    DOLYAMI_LOGIN?: string | undefined;
    DOLYAMI_PASSWORD?: string | undefined;
    DOLYAMI_CERT_PATH?: string | undefined;
    DOLYAMI_KEY_PATH?: string | undefined;
  },
  ctx: z.RefinementCtx,
): void {
  if (config.DOLYAMI_PROVIDER !== 'real') return;
  for (const field of ['DOLYAMI_LOGIN', 'DOLYAMI_PASSWORD', 'DOLYAMI_CERT_PATH', 'DOLYAMI_KEY_PATH'] as const) {
    if (!config[field])
      ctx.addIssue({ code: 'custom', path: [field], message: 'is required when DOLYAMI_PROVIDER=real' });
  }
}

export const dolyamiConfigSchema = z.object(dolyamiConfigShape).superRefine(refineDolyamiConfig);
export type DolyamiConfig = z.output<typeof dolyamiConfigSchema>;

export interface Dolyami {
  client: DolyamiClient;
  offline: OfflineDolyami | null;
}

/** `pagePath`: where the API serves the stand-in's page (offline links point there). */
export function createDolyami(
  config: DolyamiConfig,
  deps: { dataDir: string; pagePath: string; log?: DolyamiLogger },
): Dolyami {
  if (config.DOLYAMI_PROVIDER === 'real') {
    if (!config.DOLYAMI_LOGIN || !config.DOLYAMI_PASSWORD)
      throw new Error('DOLYAMI_LOGIN and DOLYAMI_PASSWORD are required when DOLYAMI_PROVIDER=real');
    const client = createDolyamiClient({
      login: config.DOLYAMI_LOGIN,
      password: config.DOLYAMI_PASSWORD,
      baseUrl: config.DOLYAMI_BASE_URL ?? DOLYAMI_DEFAULT_BASE_URL,
      tls: readTlsFiles({ cert: config.DOLYAMI_CERT_PATH, key: config.DOLYAMI_KEY_PATH, ca: config.DOLYAMI_CA_PATH }),
      timeoutMs: config.DOLYAMI_TIMEOUT_MS,
      ...(deps.log ? { log: deps.log } : {}),
    });
    return { client, offline: null };
  }
  const offline = createOfflineDolyami({
    pagePath: deps.pagePath,
    outboxDir: path.join(deps.dataDir, 'outbox'),
    log: deps.log,
  });
  return { client: offline, offline };
}
