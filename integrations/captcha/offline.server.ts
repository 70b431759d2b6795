import type { CaptchaCheck, CaptchaVerifier } from './captcha';

// The stand-in used while no captcha keys are configured (INTEGRATIONS.md §5): tokens are
// read, not checked with anyone. Tests and people steer it with special tokens:
//   ''                    fails (the browser sent nothing)
//   'offline-fail'        fails
//   'offline-ok:<score>'  passes when score >= minScore (a malformed score fails)
//   anything else         passes (the storefront sends 'offline-ok' when captcha is off)

export const OFFLINE_FAIL_TOKEN = 'offline-fail';
export const OFFLINE_OK_TOKEN = 'offline-ok';

export interface OfflineCaptchaOptions {
  /** The same threshold the real reCAPTCHA check applies (RECAPTCHA_MIN_SCORE). */
  minScore?: number;
}

export function createOfflineCaptcha(options: OfflineCaptchaOptions = {}): CaptchaVerifier {
  const minScore = options.minScore ?? 0.5;
  return {
    kind: 'off',
    async verify({ token }): Promise<CaptchaCheck> {
      const text = typeof token === 'string' ? token.trim() : '';
      if (text === '') return { ok: false, reason: 'missing token' };
      if (text === OFFLINE_FAIL_TOKEN) return { ok: false, reason: 'offline-fail token' };
      if (text.startsWith(`${OFFLINE_OK_TOKEN}:`)) {
        const raw = text.slice(OFFLINE_OK_TOKEN.length + 1);
        const score = /^(0(\.\d+)?|1(\.0+)?)$/.test(raw) ? Number(raw) : NaN;
        if (Number.isNaN(score)) return { ok: false, reason: 'malformed offline score' };
        return score >= minScore
          ? { ok: true, score }
          : { ok: false, score, reason: `score ${score} below ${minScore}` };
      }
      return { ok: true };
    },
  };
}
