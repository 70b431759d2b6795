// The captcha seam (INTEGRATIONS.md §5): the login asks this interface whether a browser's
// token is good before it sends a paid SMS, never a provider directly, so a machine with no
// internet (dev, CI) runs the same code paths as production.

export interface CaptchaCheck {
  ok: boolean;
  score?: number;
  reason?: string;
}

export interface CaptchaVerifier {
  /** 'off' when no keys are configured: any non-empty token passes (the embedded default). */
  readonly kind: 'off' | 'recaptcha' | 'smartcaptcha';
  verify(input: { token: string; action: string; ip: string }): Promise<CaptchaCheck>;
}

/** How long to wait for a provider's verdict: the shopper is waiting for a login code. */
export const CAPTCHA_DEFAULT_TIMEOUT_MS = 5_000;

/** A pino-like logger; only `warn` is used (start-up notice, provider outages). */
export interface CaptchaLogger {
  warn(obj: object, msg: string): void;
}

/** Whatever went wrong reaching a provider, as a reason: a timeout or an unreachable host. */
export function transportFailure(error: unknown, timeoutMs: number): string {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'TimeoutError' || name === 'AbortError'
    ? `no answer within ${timeoutMs} ms`
    : 'could not reach the service';
}

/** A JSON object from a provider's answer, or null for anything else. */
export function parseObject(raw: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
