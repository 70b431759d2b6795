import { describe, expect, it } from 'vitest';
import { captchaConfigSchema, createCaptchaVerifier } from './index.server';

describe('captchaConfigSchema', () => {
  it('defaults to off with the documented URLs and threshold', () => {
    expect(captchaConfigSchema.parse({})).toEqual({
      CAPTCHA_PROVIDER: 'off',
      RECAPTCHA_SECRET: undefined,
      PUBLIC_RECAPTCHA_SITE_KEY: undefined,
      RECAPTCHA_MIN_SCORE: 0.5,
      RECAPTCHA_HOSTNAMES: [],
      RECAPTCHA_VERIFY_URL: 'https://www.google.com/recaptcha/api/siteverify',
      SMARTCAPTCHA_SECRET: undefined,
      PUBLIC_SMARTCAPTCHA_SITE_KEY: undefined,
      SMARTCAPTCHA_VERIFY_URL: 'https://smartcaptcha.yandexcloud.net/validate',
      CAPTCHA_TIMEOUT_MS: 5000,
    });
  });

  it('reads reCAPTCHA settings, treating empty values as unset', () => {
    const config = captchaConfigSchema.parse({
      CAPTCHA_PROVIDER: 'recaptcha',
      RECAPTCHA_SECRET: 'secret',
      PUBLIC_RECAPTCHA_SITE_KEY: 'site',
      RECAPTCHA_MIN_SCORE: '0.7',
      RECAPTCHA_HOSTNAMES: 'Vitrina.example, www.vitrina.example',
      RECAPTCHA_VERIFY_URL: '',
      SMARTCAPTCHA_SECRET: '',
      CAPTCHA_TIMEOUT_MS: '1500',
    });
    expect(config).toMatchObject({
      RECAPTCHA_MIN_SCORE: 0.7,
      RECAPTCHA_HOSTNAMES: ['vitrina.example', 'www.vitrina.example'],
      RECAPTCHA_VERIFY_URL: 'https://www.google.com/recaptcha/api/siteverify',
      SMARTCAPTCHA_SECRET: undefined,
      CAPTCHA_TIMEOUT_MS: 1500,
    });
  });

  it('requires each provider its secret and site key, naming the variables', () => {
    const paths = (input: Record<string, string>) =>
      captchaConfigSchema.safeParse(input).error?.issues.map((i) => `${i.path.join('.')} ${i.message}`);
    expect(paths({ CAPTCHA_PROVIDER: 'recaptcha' })).toEqual([
      'RECAPTCHA_SECRET is required when CAPTCHA_PROVIDER=recaptcha',
      'PUBLIC_RECAPTCHA_SITE_KEY is required when CAPTCHA_PROVIDER=recaptcha',
    ]);
    expect(paths({ CAPTCHA_PROVIDER: 'smartcaptcha', SMARTCAPTCHA_SECRET: 's' })).toEqual([
      'PUBLIC_SMARTCAPTCHA_SITE_KEY is required when CAPTCHA_PROVIDER=smartcaptcha',
    ]);
  });

  it('rejects unknown providers and malformed values', () => {
    expect(captchaConfigSchema.safeParse({ CAPTCHA_PROVIDER: 'hcaptcha' }).success).toBe(false);
    expect(captchaConfigSchema.safeParse({ RECAPTCHA_MIN_SCORE: '1.5' }).success).toBe(false);
    expect(captchaConfigSchema.safeParse({ RECAPTCHA_VERIFY_URL: 'google.com' }).success).toBe(false);
    expect(captchaConfigSchema.safeParse({ RECAPTCHA_HOSTNAMES: 'https://shop.example' }).success).toBe(false);
  });
});

describe('createCaptchaVerifier', () => {
  it('is off without keys and says so once, as a warning', () => {
    const warned: string[] = [];
    const captcha = createCaptchaVerifier(captchaConfigSchema.parse({}), {
      log: { warn: (_obj, msg) => warned.push(msg) },
    });
    expect(captcha.kind).toBe('off');
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(/off/);
  });

  it('picks the configured provider', () => {
    const recaptcha = captchaConfigSchema.parse({
      CAPTCHA_PROVIDER: 'recaptcha',
      RECAPTCHA_SECRET: 's',
      PUBLIC_RECAPTCHA_SITE_KEY: 'k',
    });
    expect(createCaptchaVerifier(recaptcha).kind).toBe('recaptcha');
    const smart = captchaConfigSchema.parse({
      CAPTCHA_PROVIDER: 'smartcaptcha',
      SMARTCAPTCHA_SECRET: 's',
      PUBLIC_SMARTCAPTCHA_SITE_KEY: 'k',
    });
    expect(createCaptchaVerifier(smart).kind).toBe('smartcaptcha');
  });
});
