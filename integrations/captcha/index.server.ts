import { z } from 'zod';
import { createOfflineCaptcha } from './offline.server';
import { createRecaptchaClient, RECAPTCHA_DEFAULT_VERIFY_URL } from './recaptcha.server';
import { createSmartCaptchaClient, SMARTCAPTCHA_DEFAULT_VERIFY_URL } from './smartcaptcha.server';
import { CAPTCHA_DEFAULT_TIMEOUT_MS } from './captcha';
import type { CaptchaLogger, CaptchaVerifier } from './captcha';

export type { CaptchaCheck, CaptchaLogger, CaptchaVerifier } from './captcha';
export { OFFLINE_FAIL_TOKEN, OFFLINE_OK_TOKEN } from './offline.server';

// Empty variables (`RECAPTCHA_SECRET=` in a .env file) mean "not set", as in server/env.server.ts.
const optionalText = z
  .string()
  .trim()
  .min(1)
  .optional()
  .or(z.literal('').transform(() => undefined));

const httpUrl = (fallback: string) =>
  z
    .string()
    .regex(/^https?:\/\/[^/\s]+/i, 'must be an http(s) URL')
    .optional()
    .or(z.literal('').transform(() => undefined))
    .transform((v) => v ?? fallback);

/** The fields alone, for spreading into the app's environment schema (`z.object({...base, ...captchaConfigShape})`). */
export const captchaConfigShape = {
  CAPTCHA_PROVIDER: z.enum(['off', 'recaptcha', 'smartcaptcha']).default('off'),
  RECAPTCHA_SECRET: optionalText,
  // Public: the browser needs it to ask Google for a token.
  PUBLIC_RECAPTCHA_SITE_KEY: optionalText,
  RECAPTCHA_MIN_SCORE: z.coerce.number().min(0).max(1).default(0.5),
  // Hostnames reCAPTCHA tokens may come from (comma-separated); empty checks none.
  RECAPTCHA_HOSTNAMES: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^[a-z0-9.-]+$/, 'must be comma-separated host names'))),
  RECAPTCHA_VERIFY_URL: httpUrl(RECAPTCHA_DEFAULT_VERIFY_URL),
  SMARTCAPTCHA_SECRET: optionalText,
  // Public: the browser needs it to render the invisible widget.
  PUBLIC_SMARTCAPTCHA_SITE_KEY: optionalText,
  SMARTCAPTCHA_VERIFY_URL: httpUrl(SMARTCAPTCHA_DEFAULT_VERIFY_URL),
  CAPTCHA_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(CAPTCHA_DEFAULT_TIMEOUT_MS),
};

interface CaptchaConfigCheckInput {
  CAPTCHA_PROVIDER: 'off' | 'recaptcha' | 'smartcaptcha';
  RECAPTCHA_SECRET?: string | undefined;
  PUBLIC_RECAPTCHA_SITE_KEY?: string | undefined;
  SMARTCAPTCHA_SECRET?: string | undefined;
  PUBLIC_SMARTCAPTCHA_SITE_KEY?: string | undefined;
}

/** The cross-field rule, for reuse when the fields are merged into a bigger schema. */
export function refineCaptchaConfig(config: CaptchaConfigCheckInput, ctx: z.RefinementCtx): void {
  const required: Record<CaptchaConfigCheckInput['CAPTCHA_PROVIDER'], Array<keyof CaptchaConfigCheckInput>> = {
    off: [],
    recaptcha: ['RECAPTCHA_SECRET', 'PUBLIC_RECAPTCHA_SITE_KEY'],
    smartcaptcha: ['SMARTCAPTCHA_SECRET', 'PUBLIC_SMARTCAPTCHA_SITE_KEY'],
  };
  for (const name of required[config.CAPTCHA_PROVIDER]) {
    if (!config[name])
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message: `is required when CAPTCHA_PROVIDER=${config.CAPTCHA_PROVIDER}`,
      });
  }
}

export const captchaConfigSchema = z.object(captchaConfigShape).superRefine(refineCaptchaConfig);

export type CaptchaConfig = z.output<typeof captchaConfigSchema>;

export interface CaptchaVerifierDeps {
  log?: CaptchaLogger;
}

export function createCaptchaVerifier(config: CaptchaConfig, deps: CaptchaVerifierDeps = {}): CaptchaVerifier {
  const { log } = deps;
  const common = { timeoutMs: config.CAPTCHA_TIMEOUT_MS, log };
  // The schema's refinement guarantees the secrets; the checks keep a hand-built config honest.
  if (config.CAPTCHA_PROVIDER === 'recaptcha') {
    if (!config.RECAPTCHA_SECRET) throw new Error('RECAPTCHA_SECRET is required when CAPTCHA_PROVIDER=recaptcha');
    return createRecaptchaClient({
      ...common,
      secret: config.RECAPTCHA_SECRET,
      minScore: config.RECAPTCHA_MIN_SCORE,
      hostnames: config.RECAPTCHA_HOSTNAMES,
      verifyUrl: config.RECAPTCHA_VERIFY_URL,
    });
  }
  if (config.CAPTCHA_PROVIDER === 'smartcaptcha') {
    if (!config.SMARTCAPTCHA_SECRET)
      throw new Error('SMARTCAPTCHA_SECRET is required when CAPTCHA_PROVIDER=smartcaptcha');
    return createSmartCaptchaClient({
      ...common,
      secret: config.SMARTCAPTCHA_SECRET,
      verifyUrl: config.SMARTCAPTCHA_VERIFY_URL,
    });
  }
  // Said once, at start-up: a production shop running like this sends SMS to any script.
  log?.warn({ captcha: { provider: 'off' } }, 'Captcha is off (CAPTCHA_PROVIDER=off): any non-empty token passes');
  return createOfflineCaptcha({ minScore: config.RECAPTCHA_MIN_SCORE });
}
