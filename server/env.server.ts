import path from 'node:path';
import { z } from 'zod';
import { refineSmsConfig, smsConfigShape } from '~/integrations/sms/index.server';
import { captchaConfigShape, refineCaptchaConfig } from '~/integrations/captcha/index.server';
import { dadataConfigShape, refineDadataConfig } from '~/integrations/dadata/index.server';
import { mailConfigShape, refineMailConfig } from '~/integrations/mail/index.server';
import { cdekConfigShape, refineCdekConfig } from '~/integrations/cdek/index.server';
import { cloudPaymentsConfigShape, refineCloudPaymentsConfig } from '~/integrations/cloudpayments/index.server';
import { dolyamiConfigShape, refineDolyamiConfig } from '~/integrations/dolyami/index.server';
import { refineYandexSplitConfig, yandexSplitConfigShape } from '~/integrations/yandex-split/index.server';
import { mapTileUrlProblem, resolveMapTiles, type MapTiles } from '~/core/map-tiles';
import { DEFAULT_PGLITE_SHARED_BUFFERS } from '~/db/client.server';
import { DEFAULT_ANONYMOUS_LIMITS, type AnonymousLimits } from '~/core/anonymous-limits';

/** A cap's variable: a whole number of hits per window, 1 or more. */
const limitVar = (fallback: number) => z.coerce.number().int().min(1).max(1_000_000).default(fallback);

// Every setting comes from the environment, validated once at start-up; a bad value stops
// the process with a message naming the variable (see README "Configuration").
const schema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
    HOST: z.string().min(1).default('0.0.0.0'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    DATA_DIR: z.string().min(1).default('data'),
    PUBLIC_SITE_URL: z
      .string()
      .url()
      .optional()
      .or(z.literal('').transform(() => undefined)),
    API_BASE_URL: z
      .string()
      .regex(/^(\/[a-z0-9_-][a-z0-9/_-]*|https?:\/\/.+)$/i, 'must be a path like /backend or an http(s) URL')
      .default('/backend'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    SEED_ON_START: z
      .enum(['true', 'false', '1', '0'])
      .default('true')
      .transform((v) => v === 'true' || v === '1'),
    PGLITE_SHARED_BUFFERS: z
      .string()
      .regex(/^[1-9]\d*(kB|MB|GB)$/, 'a size such as 32MB')
      .default(DEFAULT_PGLITE_SHARED_BUFFERS),
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
    TRUST_PROXY: z
      .enum(['true', 'false', '1', '0'])
      .default('false')
      .transform((v) => v === 'true' || v === '1'),
    // SPEC §1: the messenger the stylist chat widget links to (public: it reaches the browser).
    PUBLIC_CHAT_URL: z
      .string()
      .url({ error: 'must be an https URL', abort: true })
      .refine((v) => v.startsWith('https://'), 'must be an https URL')
      .default('https://t.me/vitrina_stylist'),
    // Yandex Metrika counter (public): unset, no analytics script loads at all.
    PUBLIC_METRIKA_ID: z
      .string()
      .regex(/^\d{1,12}$/, 'must be the counter number')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    // The pickup maps' tiles (public: the browser fetches them; docs/map-tiles.md). A Leaflet URL
    // template with {z}/{x}/{y} (and {s}, {r}), or 'off'. Unset: the OpenStreetMap project's servers
    // in development and tests only; in production no map (the lists of points work) and a warning.
    PUBLIC_MAP_TILE_URL: z
      .string()
      .trim()
      .refine((v) => v === '' || v === 'off' || mapTileUrlProblem(v) === null, {
        error: (issue) => mapTileUrlProblem(String(issue.input)) ?? 'bad template',
      })
      .optional()
      .transform((v) => (v === '' ? undefined : v)),
    // The provider's credit, HTML (e.g. '&copy; <a href="https://2gis.ru">2ГИС</a>'); required with a URL.
    PUBLIC_MAP_TILE_ATTRIBUTION: z
      .string()
      .trim()
      .optional()
      .transform((v) => (v === '' ? undefined : v)),
    // What {s} takes ('abc', '0123'); the highest zoom the provider serves; its projection (Yandex: EPSG3395).
    PUBLIC_MAP_TILE_SUBDOMAINS: z
      .string()
      .regex(/^[a-z0-9]*$/i, 'must be letters or digits, one a subdomain')
      .optional()
      .transform((v) => (v === '' ? undefined : v)),
    PUBLIC_MAP_TILE_MAX_ZOOM: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z.coerce.number().int().min(1).max(22).optional(),
    ),
    PUBLIC_MAP_TILE_CRS: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['EPSG3857', 'EPSG3395']).optional()),
    // The staff secret for `npm run stock` and other staff-only API paths (at least 24 characters).
    // Unset: one is generated once and kept in DATA_DIR/staff-token.
    STAFF_TOKEN: z
      .string()
      .min(24, 'must be at least 24 characters')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    // Signs session tokens and keys login-code hashes (32+ characters; the same on every process).
    // Unset: one is generated once and kept in DATA_DIR/auth-secret.
    AUTH_SECRET: z
      .string()
      .min(32, 'must be at least 32 characters')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    // Guest page cache (server/page-cache.server.ts, README "Guest page cache").
    PAGE_CACHE: z.enum(['on', 'off']).default('on'),
    // The 1C exchange (docs/exchange-1c.md): the largest piece 1C may POST at once (mode=init's
    // file_limit), the largest file it may send in all, and how many items one mode=import call applies.
    EXCHANGE_FILE_LIMIT: z.coerce.number().int().min(1024).max(1_073_741_824).default(1_048_576),
    EXCHANGE_MAX_FILE_MB: z.coerce.number().int().min(1).max(65_536).default(1024),
    // Unset: DEFAULT_EXCHANGE_IMPORT_STEP for the database (server/app.server.ts exchangeOptions).
    EXCHANGE_IMPORT_STEP: z.coerce.number().int().min(1).max(100_000).optional(),
    // zip=yes in mode=init (1C then sends one archive), and what an archive may unpack to in all.
    EXCHANGE_ZIP: z.enum(['yes', 'no']).default('yes'),
    EXCHANGE_MAX_UNZIP_MB: z.coerce.number().int().min(1).max(65_536).default(4096),
    // A picture from 1C (import_files/…) larger than this is not taken (a warning in the log).
    EXCHANGE_MAX_PICTURE_MB: z.coerce.number().int().min(1).max(1024).default(10),
    PAGE_CACHE_MAX_MB: z.coerce.number().int().min(1).max(65_536).default(64),
    // How long a cached page lives at most: the bound on changes no version sees (README).
    PAGE_CACHE_TTL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
    // With NODE_ENV=production the shop refuses to start while a money-moving provider is its
    // offline stand-in (anyone could pay with the test card), unless this says it is a demo.
    ALLOW_OFFLINE_PAYMENTS: z
      .enum(['true', 'false', '1', '0'])
      .default('false')
      .transform((v) => v === 'true' || v === '1'),
    // Caps on anonymous actions (core/anonymous-limits.ts, docs/production.md).
    FAST_ORDERS_PER_IP_HOUR: limitVar(DEFAULT_ANONYMOUS_LIMITS.fastOrdersPerIpHour),
    FAST_ORDERS_PER_PHONE_DAY: limitVar(DEFAULT_ANONYMOUS_LIMITS.fastOrdersPerPhoneDay),
    FAST_ORDERS_PER_OFFER_IP_DAY: limitVar(DEFAULT_ANONYMOUS_LIMITS.fastOrdersPerOfferIpDay),
    FAST_ORDER_HOLD_HOURS: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 30)
      .default(DEFAULT_ANONYMOUS_LIMITS.fastOrderHoldHours),
    WAITING_LIST_PER_IP_HOUR: limitVar(DEFAULT_ANONYMOUS_LIMITS.waitingListPerIpHour),
    WAITING_LIST_PER_OFFER_IP_DAY: limitVar(DEFAULT_ANONYMOUS_LIMITS.waitingListPerOfferIpDay),
    WAITING_LIST_PER_PHONE_DAY: limitVar(DEFAULT_ANONYMOUS_LIMITS.waitingListPerPhoneDay),
    PAYMENT_CHECKS_PER_IP_MINUTE: limitVar(DEFAULT_ANONYMOUS_LIMITS.paymentChecksPerIpMinute),
    PAYMENT_CHECKS_PER_ORDER_MINUTE: limitVar(DEFAULT_ANONYMOUS_LIMITS.paymentChecksPerOrderMinute),
    CDEK_CALLS_PER_IP_MINUTE: limitVar(DEFAULT_ANONYMOUS_LIMITS.cdekCallsPerIpMinute),
    ...smsConfigShape,
    ...captchaConfigShape,
    ...dadataConfigShape,
    ...mailConfigShape,
    ...cdekConfigShape,
    ...cloudPaymentsConfigShape,
    ...dolyamiConfigShape,
    ...yandexSplitConfigShape,
  })
  .superRefine(refineSmsConfig)
  .superRefine(refineCaptchaConfig)
  .superRefine(refineDadataConfig)
  .superRefine(refineMailConfig)
  .superRefine(refineCdekConfig)
  .superRefine(refineCloudPaymentsConfig)
  .superRefine(refineDolyamiConfig)
  .superRefine(refineYandexSplitConfig)
  .superRefine((config, ctx) => {
    // A provider's terms require its credit on the map.
    if (config.PUBLIC_MAP_TILE_URL && config.PUBLIC_MAP_TILE_URL !== 'off' && !config.PUBLIC_MAP_TILE_ATTRIBUTION) {
      ctx.addIssue({
        code: 'custom',
        path: ['PUBLIC_MAP_TILE_ATTRIBUTION'],
        message: 'is required with PUBLIC_MAP_TILE_URL (the provider’s credit, HTML)',
      });
    }
  });

export type Env = z.infer<typeof schema> & {
  dataDir: string;
  siteUrl: string;
  apiPrefix: string | null;
  /** The pickup maps' tiles, or null: no map (core/map-tiles.ts). */
  mapTiles: MapTiles | null;
};

export class ConfigError extends Error {}

export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  const dataDir = path.resolve(env.DATA_DIR);
  const siteUrl = (env.PUBLIC_SITE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
  // A relative API base means this process hosts the API itself under that prefix.
  const apiPrefix = env.API_BASE_URL.startsWith('/') ? env.API_BASE_URL.replace(/\/+$/, '') || null : null;
  return { ...env, dataDir, siteUrl, apiPrefix, mapTiles: resolveMapTiles(env) };
}

/** Settings that start the shop but leave something out: logged as warnings at start. */
export function configWarnings(env: Env): string[] {
  const warnings: string[] = [];
  if (env.NODE_ENV === 'production' && env.PUBLIC_MAP_TILE_URL === undefined) {
    warnings.push(
      'PUBLIC_MAP_TILE_URL is not set: the pickup-point maps are hidden (the lists work). The OpenStreetMap project’s tile servers are for development only; configure a provider (docs/map-tiles.md), or set it to "off" to silence this.',
    );
  }
  return warnings;
}

/** The variables of the providers that move money (card, pay in parts) left on their offline stand-ins. */
export function offlinePaymentProviders(
  env: Pick<Env, 'CLOUDPAYMENTS_PROVIDER' | 'DOLYAMI_PROVIDER' | 'YANDEX_SPLIT_PROVIDER'>,
): string[] {
  return [
    env.CLOUDPAYMENTS_PROVIDER === 'offline' ? 'CLOUDPAYMENTS_PROVIDER' : null,
    env.DOLYAMI_PROVIDER === 'offline' ? 'DOLYAMI_PROVIDER' : null,
    env.YANDEX_SPLIT_PROVIDER === 'offline' ? 'YANDEX_SPLIT_PROVIDER' : null,
  ].filter((v): v is string => v !== null);
}

/** The variables of the other outside services left on their stand-ins (nothing is charged, but nothing reaches anyone). */
export function offlineServices(
  env: Pick<Env, 'SMS_PROVIDER' | 'MAIL_PROVIDER' | 'CAPTCHA_PROVIDER' | 'CDEK_PROVIDER' | 'DADATA_PROVIDER'>,
): string[] {
  return [
    env.SMS_PROVIDER === 'offline' ? 'SMS_PROVIDER' : null,
    env.MAIL_PROVIDER === 'offline' ? 'MAIL_PROVIDER' : null,
    env.CAPTCHA_PROVIDER === 'off' ? 'CAPTCHA_PROVIDER' : null,
    env.CDEK_PROVIDER === 'offline' ? 'CDEK_PROVIDER' : null,
    env.DADATA_PROVIDER === 'offline' ? 'DADATA_PROVIDER' : null,
  ].filter((v): v is string => v !== null);
}

/**
 * Whether payments are simulated: a money-moving provider is offline. In production that is a
 * demo only by ALLOW_OFFLINE_PAYMENTS=true; start-up refuses it otherwise (assertProductionReady).
 */
export function paymentsSimulated(env: Env): boolean {
  return offlinePaymentProviders(env).length > 0;
}

/**
 * Start-up's refusal of a production process whose card or instalment payments are the offline
 * stand-ins (their test card pays any order): a ConfigError naming the variables to set.
 */
export function assertProductionReady(env: Env): void {
  if (env.NODE_ENV !== 'production' || env.ALLOW_OFFLINE_PAYMENTS) return;
  const offline = offlinePaymentProviders(env);
  if (offline.length === 0) return;
  throw new ConfigError(
    [
      'Refusing to start: NODE_ENV=production with payments on their offline stand-ins, where a test card pays any order:',
      ...offline.map(
        (name) => `  ${name}: is offline; set it to the real provider with its credentials (docs/configuration.md)`,
      ),
      '  or set ALLOW_OFFLINE_PAYMENTS=true for a demo or staging site (payments are simulated; `npm start` sets it).',
    ].join('\n'),
  );
}

/** The caps on anonymous actions as the environment sets them. */
export function anonymousLimits(env: Env): AnonymousLimits {
  return {
    fastOrdersPerIpHour: env.FAST_ORDERS_PER_IP_HOUR,
    fastOrdersPerPhoneDay: env.FAST_ORDERS_PER_PHONE_DAY,
    fastOrdersPerOfferIpDay: env.FAST_ORDERS_PER_OFFER_IP_DAY,
    fastOrderHoldHours: env.FAST_ORDER_HOLD_HOURS,
    waitingListPerIpHour: env.WAITING_LIST_PER_IP_HOUR,
    waitingListPerOfferIpDay: env.WAITING_LIST_PER_OFFER_IP_DAY,
    waitingListPerPhoneDay: env.WAITING_LIST_PER_PHONE_DAY,
    paymentChecksPerIpMinute: env.PAYMENT_CHECKS_PER_IP_MINUTE,
    paymentChecksPerOrderMinute: env.PAYMENT_CHECKS_PER_ORDER_MINUTE,
    cdekCallsPerIpMinute: env.CDEK_CALLS_PER_IP_MINUTE,
  };
}
