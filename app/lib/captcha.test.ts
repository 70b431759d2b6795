import { afterEach, describe, expect, it, vi } from 'vitest';
import { getCaptchaToken } from './captcha';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

interface FakeScript {
  src: string;
  async: boolean;
  onload?: () => void;
  onerror?: () => void;
}

/** A document that records appended scripts and lets the test decide when they load. */
function fakeDocument() {
  const scripts: FakeScript[] = [];
  const containers: { hidden: boolean }[] = [];
  vi.stubGlobal('document', {
    createElement: (tag: string) => (tag === 'script' ? { src: '', async: false } : { hidden: false }),
    head: { appendChild: (el: FakeScript) => scripts.push(el) },
    body: { appendChild: (el: { hidden: boolean }) => containers.push(el) },
  });
  return { scripts, containers };
}

describe('getCaptchaToken', () => {
  it("answers 'offline-ok' with the captcha off or unset, even on the server", async () => {
    expect(await getCaptchaToken('send_sms', { PUBLIC_CAPTCHA_PROVIDER: 'off' })).toBe('offline-ok');
    expect(await getCaptchaToken('send_sms', undefined)).toBe('offline-ok');
  });

  it('loads reCAPTCHA once with the site key and executes the action', async () => {
    const { scripts } = fakeDocument();
    const win: { grecaptcha?: unknown } = {};
    vi.stubGlobal('window', win);
    const execute = vi.fn(async (_key: string, { action }: { action: string }) => `token-for-${action}`);
    const env = { PUBLIC_CAPTCHA_PROVIDER: 'recaptcha', PUBLIC_RECAPTCHA_SITE_KEY: '6Lc-site-key' } as const;

    const first = getCaptchaToken('send_sms', env);
    await Promise.resolve();
    expect(scripts.map((s) => s.src)).toEqual(['https://www.google.com/recaptcha/api.js?render=6Lc-site-key']);
    win.grecaptcha = { ready: (fn: () => void) => fn(), execute };
    scripts[0]?.onload?.();
    expect(await first).toBe('token-for-send_sms');
    expect(execute).toHaveBeenCalledWith('6Lc-site-key', { action: 'send_sms' });

    expect(await getCaptchaToken('send_sms', env)).toBe('token-for-send_sms');
    expect(scripts).toHaveLength(1);
  });

  it("gives '' when the reCAPTCHA script fails to load, and tries again next time", async () => {
    const { scripts } = fakeDocument();
    vi.stubGlobal('window', {});
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const env = { PUBLIC_CAPTCHA_PROVIDER: 'recaptcha', PUBLIC_RECAPTCHA_SITE_KEY: 'another-key' } as const;
    const token = getCaptchaToken('send_sms', env);
    await Promise.resolve();
    scripts[0]?.onerror?.();
    expect(await token).toBe('');
    void getCaptchaToken('send_sms', env);
    await Promise.resolve();
    expect(scripts).toHaveLength(2);
  });

  it('renders one invisible SmartCaptcha widget and executes it per token', async () => {
    const { scripts, containers } = fakeDocument();
    let callback: ((token: string) => void) | undefined;
    let issued = 0;
    const smartCaptcha = {
      render: vi.fn(
        (_el: unknown, params: { sitekey: string; invisible: boolean; callback: (token: string) => void }) => {
          callback = params.callback;
          return 7;
        },
      ),
      execute: vi.fn(() => setTimeout(() => callback?.(`smart-token-${++issued}`), 0)),
      reset: vi.fn(),
    };
    const win: { smartCaptcha?: unknown } = {};
    vi.stubGlobal('window', win);
    const env = { PUBLIC_CAPTCHA_PROVIDER: 'smartcaptcha', PUBLIC_SMARTCAPTCHA_SITE_KEY: 'ysc1_site' } as const;

    const first = getCaptchaToken('send_sms', env);
    await Promise.resolve();
    expect(scripts.map((s) => s.src)).toEqual(['https://smartcaptcha.yandexcloud.net/captcha.js?render=onload']);
    win.smartCaptcha = smartCaptcha;
    scripts[0]?.onload?.();
    expect(await first).toBe('smart-token-1');
    expect(smartCaptcha.render).toHaveBeenCalledWith(
      containers[0],
      expect.objectContaining({ sitekey: 'ysc1_site', invisible: true }),
    );
    expect(containers[0]?.hidden).toBe(true);

    expect(await getCaptchaToken('send_sms', env)).toBe('smart-token-2');
    expect(smartCaptcha.render).toHaveBeenCalledTimes(1);
    expect(smartCaptcha.reset).toHaveBeenCalledWith(7);
    expect(smartCaptcha.execute).toHaveBeenCalledTimes(2);
  });
});
