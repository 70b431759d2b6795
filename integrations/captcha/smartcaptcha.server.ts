import { CAPTCHA_DEFAULT_TIMEOUT_MS, parseObject, transportFailure } from './captcha';
import type { CaptchaCheck, CaptchaLogger, CaptchaVerifier } from './captcha';

// Yandex SmartCaptcha (INTEGRATIONS.md §5): POST <verifyUrl> form `secret, token, ip` →
// `{status: "ok" | "failed", message, host}`; only "ok" passes. Yandex's own sample lets the
// shopper through when its service errs; this client fails closed instead (the caller is about
// to send a paid SMS) and never throws.

export const SMARTCAPTCHA_DEFAULT_VERIFY_URL = 'https://smartcaptcha.yandexcloud.net/validate';

export interface SmartCaptchaOptions {
  secret: string;
  /** Tests point this at a local fake. */
  verifyUrl?: string;
  timeoutMs?: number;
  log?: CaptchaLogger;
  /** Injected for tests; defaults to the global fetch. */
  fetch?: typeof fetch;
}

export function createSmartCaptchaClient(options: SmartCaptchaOptions): CaptchaVerifier {
  if (!options.secret) throw new Error('SmartCaptcha client needs a secret');
  const secret = options.secret;
  const endpoint = options.verifyUrl ?? SMARTCAPTCHA_DEFAULT_VERIFY_URL;
  const timeoutMs = options.timeoutMs ?? CAPTCHA_DEFAULT_TIMEOUT_MS;
  const doFetch = options.fetch ?? fetch;
  const log = options.log;

  const outage = (reason: string): CaptchaCheck => {
    log?.warn({ captcha: { provider: 'smartcaptcha', reason } }, 'SmartCaptcha check could not be made');
    return { ok: false, reason };
  };

  return {
    kind: 'smartcaptcha',
    // SmartCaptcha has no actions: the token alone is checked.
    async verify({ token, ip }): Promise<CaptchaCheck> {
      if (typeof token !== 'string' || token.trim() === '') return { ok: false, reason: 'missing token' };
      const form = new URLSearchParams({ secret, token: token.trim() });
      if (ip) form.set('ip', ip);

      let raw: string;
      try {
        const response = await doFetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8', accept: 'application/json' },
          body: form.toString(),
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (!response.ok) {
          await response.body?.cancel().catch(() => undefined);
          return outage(`HTTP ${response.status}`);
        }
        // Read inside the try: the timeout also covers a body that stops half-way.
        raw = await response.text();
      } catch (error) {
        return outage(transportFailure(error, timeoutMs));
      }
      const answer = parseObject(raw) as { status?: unknown; message?: unknown } | null;
      if (!answer) return outage('the answer is not JSON');

      if (answer.status === 'ok') return { ok: true };
      const message = typeof answer.message === 'string' && answer.message ? `: ${answer.message.slice(0, 200)}` : '';
      return { ok: false, reason: `refused${message}` };
    },
  };
}
