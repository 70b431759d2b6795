import { useCallback } from 'react';
import type { PublicEnv } from '~/shared/context';
import { useRootData } from '~/app/lib/root-data';

// The browser half of the captcha (INTEGRATIONS.md §5): a token for one action, which the
// server checks (integrations/captcha/) before it sends a login code. The provider and its
// public site key come from the root loader's public env (CAPTCHA_PROVIDER and the
// PUBLIC_*_SITE_KEY variables). With the captcha off the token is 'offline-ok', which the
// server's stand-in accepts. A widget that cannot load gives '' rather than an error: the
// server then refuses with its own Russian message, so the form has one failure path.

export type CaptchaPublicEnv = Pick<
  PublicEnv,
  'PUBLIC_CAPTCHA_PROVIDER' | 'PUBLIC_RECAPTCHA_SITE_KEY' | 'PUBLIC_SMARTCAPTCHA_SITE_KEY'
>;

export const OFFLINE_CAPTCHA_TOKEN = 'offline-ok';
const RECAPTCHA_SCRIPT = 'https://www.google.com/recaptcha/api.js?render=';
const SMARTCAPTCHA_SCRIPT = 'https://smartcaptcha.yandexcloud.net/captcha.js?render=onload';
// A blocked script or a puzzle the shopper walked away from must not hang the form forever.
const SCRIPT_TIMEOUT_MS = 15_000;
const SMARTCAPTCHA_TOKEN_TIMEOUT_MS = 120_000;

interface Grecaptcha {
  ready(callback: () => void): void;
  execute(siteKey: string, options: { action: string }): Promise<string>;
}

interface SmartCaptcha {
  render(
    container: HTMLElement,
    params: { sitekey: string; invisible: boolean; callback: (token: string) => void },
  ): number;
  execute(widgetId?: number): void;
  reset(widgetId?: number): void;
}

declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
    smartCaptcha?: SmartCaptcha;
  }
}

// One script load per page, whatever the number of forms asking.
const scripts = new Map<string, Promise<void>>();

function loadScript(src: string): Promise<void> {
  let loading = scripts.get(src);
  if (!loading) {
    loading = new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = src;
      script.async = true;
      script.onload = () => resolve();
      script.onerror = () => reject(new Error(`captcha script failed to load: ${src}`));
      document.head.appendChild(script);
    });
    // A failed load may be retried on the next request (the network came back).
    loading.catch(() => scripts.delete(src));
    scripts.set(src, loading);
  }
  return loading;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`captcha: no token within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

async function recaptchaToken(siteKey: string, action: string): Promise<string> {
  if (!window.grecaptcha?.execute)
    await withTimeout(loadScript(`${RECAPTCHA_SCRIPT}${encodeURIComponent(siteKey)}`), SCRIPT_TIMEOUT_MS);
  const grecaptcha = window.grecaptcha;
  if (!grecaptcha) throw new Error('captcha: grecaptcha is missing after its script loaded');
  await withTimeout(new Promise<void>((resolve) => grecaptcha.ready(resolve)), SCRIPT_TIMEOUT_MS);
  return withTimeout(grecaptcha.execute(siteKey, { action }), SCRIPT_TIMEOUT_MS);
}

// The invisible widget is rendered once into a hidden container; each token is one execute,
// delivered to the widget's callback (tokens are single-use: reset before the next one).
let smartWidget: { siteKey: string; id: number; used: boolean } | null = null;
let smartPending: ((token: string) => void) | null = null;

async function smartCaptchaToken(siteKey: string): Promise<string> {
  if (!window.smartCaptcha) await withTimeout(loadScript(SMARTCAPTCHA_SCRIPT), SCRIPT_TIMEOUT_MS);
  const smartCaptcha = window.smartCaptcha;
  if (!smartCaptcha) throw new Error('captcha: smartCaptcha is missing after its script loaded');
  if (!smartWidget || smartWidget.siteKey !== siteKey) {
    const container = document.createElement('div');
    container.hidden = true;
    document.body.appendChild(container);
    const id = smartCaptcha.render(container, {
      sitekey: siteKey,
      invisible: true,
      callback: (token) => {
        const pending = smartPending;
        smartPending = null;
        pending?.(token);
      },
    });
    smartWidget = { siteKey, id, used: false };
  }
  const widget = smartWidget;
  // An older request still waiting (the shopper pressed twice) gets nothing; the newest wins.
  smartPending?.('');
  const token = new Promise<string>((resolve) => {
    smartPending = resolve;
  });
  if (widget.used) smartCaptcha.reset(widget.id);
  widget.used = true;
  smartCaptcha.execute(widget.id);
  return withTimeout(token, SMARTCAPTCHA_TOKEN_TIMEOUT_MS);
}

/**
 * A captcha token for `action` (e.g. 'send_sms'), for the server to check. Browser only: call
 * it from event handlers. Resolves 'offline-ok' with the captcha off, '' when the widget fails.
 */
export async function getCaptchaToken(action: string, env: CaptchaPublicEnv | undefined): Promise<string> {
  const provider = env?.PUBLIC_CAPTCHA_PROVIDER ?? 'off';
  if (provider === 'off') return OFFLINE_CAPTCHA_TOKEN;
  if (typeof window === 'undefined') throw new Error('getCaptchaToken runs in the browser only');
  try {
    if (provider === 'recaptcha' && env?.PUBLIC_RECAPTCHA_SITE_KEY)
      return await recaptchaToken(env.PUBLIC_RECAPTCHA_SITE_KEY, action);
    if (provider === 'smartcaptcha' && env?.PUBLIC_SMARTCAPTCHA_SITE_KEY)
      return await smartCaptchaToken(env.PUBLIC_SMARTCAPTCHA_SITE_KEY);
    console.warn(`captcha: ${provider} has no public site key`);
  } catch (error) {
    console.warn(error);
  }
  return '';
}

/**
 * `getCaptchaToken` bound to the public env the root loader handed down:
 * `const getCaptchaToken = useCaptchaToken(); const token = await getCaptchaToken('send_sms');`
 */
export function useCaptchaToken(): (action: string) => Promise<string> {
  const root = useRootData();
  const provider = root?.env?.PUBLIC_CAPTCHA_PROVIDER;
  const recaptchaKey = root?.env?.PUBLIC_RECAPTCHA_SITE_KEY;
  const smartKey = root?.env?.PUBLIC_SMARTCAPTCHA_SITE_KEY;
  return useCallback(
    (action: string) =>
      getCaptchaToken(action, {
        PUBLIC_CAPTCHA_PROVIDER: provider,
        PUBLIC_RECAPTCHA_SITE_KEY: recaptchaKey,
        PUBLIC_SMARTCAPTCHA_SITE_KEY: smartKey,
      }),
    [provider, recaptchaKey, smartKey],
  );
}
