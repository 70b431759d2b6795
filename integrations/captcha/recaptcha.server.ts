import { CAPTCHA_DEFAULT_TIMEOUT_MS, parseObject, transportFailure } from './captcha';
import type { CaptchaCheck, CaptchaLogger, CaptchaVerifier } from './captcha';

// Google reCAPTCHA v3 (INTEGRATIONS.md §5): POST <verifyUrl> form `secret, response, remoteip`
// → `{success, score, action, challenge_ts, hostname, "error-codes"}`. A token passes only with
// success, the action the page asked for, one of our hostnames (when configured) and a score at
// or above the threshold. Anything else, including the provider being down, is a failed check:
// the caller is about to send a paid SMS, so this fails closed and never throws.

export const RECAPTCHA_DEFAULT_VERIFY_URL = 'https://www.google.com/recaptcha/api/siteverify';

export interface RecaptchaOptions {
  secret: string;
  /** Lowest score that passes (0.0 bot … 1.0 human). */
  minScore?: number;
  /** Hostnames the token may come from; empty or unset checks none. */
  hostnames?: readonly string[];
  /** Tests point this at a local fake. */
  verifyUrl?: string;
  timeoutMs?: number;
  log?: CaptchaLogger;
  /** Injected for tests; defaults to the global fetch. */
  fetch?: typeof fetch;
}

interface SiteverifyAnswer {
  success?: unknown;
  score?: unknown;
  action?: unknown;
  hostname?: unknown;
  'error-codes'?: unknown;
}

export function createRecaptchaClient(options: RecaptchaOptions): CaptchaVerifier {
  if (!options.secret) throw new Error('reCAPTCHA client needs a secret');
  const secret = options.secret;
  const endpoint = options.verifyUrl ?? RECAPTCHA_DEFAULT_VERIFY_URL;
  const minScore = options.minScore ?? 0.5;
  const hostnames = new Set((options.hostnames ?? []).map((h) => h.toLowerCase()));
  const timeoutMs = options.timeoutMs ?? CAPTCHA_DEFAULT_TIMEOUT_MS;
  const doFetch = options.fetch ?? fetch;
  const log = options.log;

  // The provider being unreachable or refusing our secret is an outage or a configuration
  // problem, not a bot: say so in the log, once per failed check.
  const outage = (reason: string): CaptchaCheck => {
    log?.warn({ captcha: { provider: 'recaptcha', reason } }, 'reCAPTCHA check could not be made');
    return { ok: false, reason };
  };

  return {
    kind: 'recaptcha',
    async verify({ token, action, ip }): Promise<CaptchaCheck> {
      if (typeof token !== 'string' || token.trim() === '') return { ok: false, reason: 'missing token' };
      const form = new URLSearchParams({ secret, response: token.trim() });
      if (ip) form.set('remoteip', ip);

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
      const answer = parseObject(raw) as SiteverifyAnswer | null;
      if (!answer) return outage('the answer is not JSON');

      const score = typeof answer.score === 'number' && Number.isFinite(answer.score) ? answer.score : undefined;
      if (answer.success !== true) {
        const codes = Array.isArray(answer['error-codes'])
          ? answer['error-codes'].filter((c) => typeof c === 'string')
          : [];
        // Google's names for our own mistakes (bad or missing secret): worth a warning.
        if (codes.some((c) => c.includes('secret'))) return outage(`refused: ${codes.join(', ')}`);
        return { ok: false, score, reason: `refused${codes.length ? `: ${codes.join(', ')}` : ''}` };
      }
      if (answer.action !== action)
        return { ok: false, score, reason: `action ${String(answer.action)} is not ${action}` };
      if (hostnames.size > 0) {
        const hostname = typeof answer.hostname === 'string' ? answer.hostname.toLowerCase() : '';
        if (!hostnames.has(hostname))
          return { ok: false, score, reason: `hostname ${hostname || '(none)'} is not ours` };
      }
      // A v2 key's token has no score: it must not slip through a v3 check.
      if (score === undefined) return { ok: false, reason: 'no score in the answer' };
      if (score < minScore) return { ok: false, score, reason: `score ${score} below ${minScore}` };
      return { ok: true, score };
    },
  };
}
