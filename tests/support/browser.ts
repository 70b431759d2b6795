import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const DESKTOP = { width: 1280, height: 900 };
export const MOBILE = { width: 390, height: 844 };

/** Debian's Chromium (or CHROME_PATH); nothing is ever downloaded. */
export function chromePath(): string {
  const candidates = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean) as string[];
  const found = candidates.find((p) => fs.existsSync(p));
  if (!found) throw new Error('Chromium not found: apt-get install -y chromium, or set CHROME_PATH');
  return found;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromePath(),
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-quic', '--no-first-run', '--disable-sync'],
  });
}

export async function newShopperContext(browser: Browser, baseURL: string, viewport = DESKTOP): Promise<BrowserContext> {
  return browser.newContext({ baseURL, viewport, locale: 'ru-RU', isMobile: viewport.width < 600, hasTouch: viewport.width < 600 });
}

/** Logs a shopper in the way the shop itself does: the token cookie (SPEC §4 Auth). */
export async function setTokenCookie(context: BrowserContext, baseURL: string, token = 'test-token'): Promise<void> {
  await context.addCookies([{ name: 'token', value: token, url: baseURL }]);
}

/** Page object for the shell every page shares. */
export class StorefrontPage {
  constructor(readonly page: Page) {}

  async goto(path: string) {
    const res = await this.page.goto(path);
    // Hydration done: React Router marks it by attaching its router to window.
    await this.page.waitForFunction(() => (window as unknown as { __reactRouterRouteModules?: unknown }).__reactRouterRouteModules !== undefined);
    return res;
  }

  header() {
    return this.page.getByRole('banner');
  }

  tabBar() {
    return this.page.getByRole('navigation', { name: 'Быстрые ссылки' });
  }

  heading() {
    return this.page.getByRole('heading', { level: 1 });
  }
}
