import fs from 'node:fs';
import { chromium, type Browser, type LaunchOptions } from 'playwright-core';

// Debian's Chromium as the browser tests, the screenshots script and the Lighthouse bench start
// it. No Vitest here: the browser suite's global setup (tests/support/browser-server.ts) runs
// outside the test workers.

/** Where the browser suite's global setup leaves the run's shared Chromium (a Playwright server's WebSocket address). */
export const BROWSER_ENDPOINT_ENV = 'VITRINA_TEST_BROWSER_WS';

/** Debian's Chromium (or CHROME_PATH); nothing is ever downloaded. */
export function chromePath(): string {
  const candidates = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
    Boolean,
  ) as string[];
  const found = candidates.find((p) => fs.existsSync(p));
  if (!found) throw new Error('Chromium not found: apt-get install -y chromium, or set CHROME_PATH');
  return found;
}

/** The flags every Chromium of the project starts with (tests, screenshots, Lighthouse). */
export const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-quic',
  '--no-first-run',
  '--disable-sync',
];

function launchOptions(): LaunchOptions {
  return { executablePath: chromePath(), headless: true, args: CHROME_FLAGS };
}

/** A Chromium of the caller's own (scripts, or a browser test file run outside the suite's set-up). */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch(launchOptions());
}

/** A Chromium that Playwright clients connect to (`chromium.connect(server.wsEndpoint())`). */
export function launchBrowserServer() {
  return chromium.launchServer(launchOptions());
}
