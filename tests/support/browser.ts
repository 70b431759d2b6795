import { afterAll, beforeAll, test } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page, type Response } from 'playwright-core';
import { setUpTestShop, type TestShop, type TestShopOptions } from './server';
import { sessionToken } from './session';
import { BROWSER_ENDPOINT_ENV, launchBrowser } from './chromium';

export interface Viewport {
  width: number;
  height: number;
}

export const DESKTOP: Viewport = { width: 1280, height: 900 };
export const MOBILE: Viewport = { width: 390, height: 844 };

export { chromePath, launchBrowser } from './chromium';

/**
 * The browser a test file drives: the run's shared Chromium when the suite's global setup
 * started one (tests/support/browser-server.ts), else one of the file's own. Closing it closes
 * what this file opened and, for the shared one, only disconnects.
 */
async function openBrowser(): Promise<Browser> {
  const endpoint = process.env[BROWSER_ENDPOINT_ENV];
  return endpoint ? chromium.connect(endpoint) : launchBrowser();
}

/** A shopper's browser context (Russian locale, touch on phones). Tests take theirs from the `shopper` fixture, which closes it. */
export async function newShopperContext(
  browser: Browser,
  baseURL: string,
  viewport: Viewport = DESKTOP,
): Promise<BrowserContext> {
  return browser.newContext({
    baseURL,
    viewport,
    locale: 'ru-RU',
    isMobile: viewport.width < 600,
    hasTouch: viewport.width < 600,
  });
}

/**
 * Logs the shopper of this context in as the customer with `phone` (made when new), the way
 * the shop's login leaves a browser: a real session in the database, its signed token in the
 * HttpOnly `token` cookie and the shell's `logged_in` mark. No SMS round trip: the login
 * itself has its own tests.
 */
export async function login(
  context: BrowserContext,
  shop: Pick<TestShop, 'baseUrl' | 'database' | 'dataDir'>,
  phone = '79990000000',
): Promise<{ token: string; customerId: number }> {
  const { token, customerId } = await sessionToken(shop, phone);
  await context.addCookies([
    { name: 'token', value: token, url: shop.baseUrl, httpOnly: true, sameSite: 'Lax' },
    { name: 'logged_in', value: '1', url: shop.baseUrl, sameSite: 'Lax' },
  ]);
  return { token, customerId };
}

/**
 * The app's own hydration signal: the root layout sets `data-hydrated` on <html> in an effect,
 * which React runs after the effects of every component below it (timers started, handlers on).
 */
/** The page's console errors and uncaught exceptions from now on (a hydration mismatch is one). */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

export async function waitForHydration(page: Page): Promise<void> {
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
}

/** Opens shopper browsers for one test; every context it opened is closed when the test ends. */
export interface Shopper {
  /** A page in a context of its own (own cookies and storage), nothing opened yet. */
  newPage(viewport?: Viewport): Promise<Page>;
  /** A new page showing `path`, hydrated. */
  open(path: string, viewport?: Viewport): Promise<{ page: Page; store: StorefrontPage; response: Response | null }>;
}

/**
 * A browser test file's set-up: the shop with its storefront and a connection to Chromium, opened
 * before the file's tests and closed after them, and `it` with a `shopper` fixture that closes
 * the browser contexts a test opened, also when the test fails.
 *
 *     const { shop, it } = setUpBrowserShop();
 *     it('…', async ({ shopper }) => { const { page } = await shopper.open('/'); … });
 */
export function setUpBrowserShop(options: Omit<TestShopOptions, 'withStorefront'> = {}) {
  const shop = setUpTestShop({ ...options, withStorefront: true });
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    browser = undefined;
  });

  const it = test.extend<{ shopper: Shopper }>({
    // Vitest reads a fixture's dependencies from the destructured first argument: none here.
    // eslint-disable-next-line no-empty-pattern
    shopper: async ({}, provide) => {
      const contexts: BrowserContext[] = [];
      const newPage = async (viewport = DESKTOP) => {
        if (!browser) throw new Error('The browser is not running: use the shopper inside tests');
        const context = await newShopperContext(browser, shop.baseUrl, viewport);
        contexts.push(context);
        return context.newPage();
      };
      try {
        await provide({
          newPage,
          async open(path, viewport) {
            const page = await newPage(viewport);
            const store = new StorefrontPage(page);
            const response = await store.goto(path);
            return { page, store, response };
          },
        });
      } finally {
        await Promise.all(contexts.map((c) => c.close().catch(() => {})));
      }
    },
  });
  return { shop, it };
}

/**
 * Records, in the page and as they happen, the steps of client-side navigations that concern
 * `path`: history entries (`push /search/?q=…`) and the route requests the router sends for
 * them (`fetch /search.data?q=…`, `fetch /__manifest?paths=/search…`), URLs decoded. The router
 * sends those while the event that navigates is still being handled, so `entries()` right after
 * an action tells whether it set a navigation off. A full page load ends the record ('reloaded').
 */
export async function recordNavigations(page: Page, path: string) {
  await page.evaluate((watched) => {
    const w = window as Window & { __navigations?: string[] };
    const log: string[] = (w.__navigations = []);
    const note = (kind: string, url: string | URL | null | undefined) => {
      if (url == null) return;
      const target = new URL(String(url), location.href);
      const text = decodeURIComponent(`${target.pathname}${target.search}`);
      if (target.origin === location.origin && !target.pathname.startsWith('/backend/') && text.includes(watched))
        log.push(`${kind} ${text}`);
    };
    const { pushState, replaceState } = history;
    history.pushState = function (data, unused, url) {
      note('push', url);
      pushState.call(this, data, unused, url);
    };
    history.replaceState = function (data, unused, url) {
      note('replace', url);
      replaceState.call(this, data, unused, url);
    };
    const originalFetch = window.fetch;
    window.fetch = (input, init) => {
      note('fetch', input instanceof Request ? input.url : input);
      return originalFetch.call(window, input, init);
    };
  }, path);
  return {
    entries: () => page.evaluate(() => (window as Window & { __navigations?: string[] }).__navigations ?? 'reloaded'),
  };
}

/** Page object for the shell every page shares. */
export class StorefrontPage {
  constructor(readonly page: Page) {}

  async goto(path: string) {
    const res = await this.page.goto(path);
    await waitForHydration(this.page);
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
