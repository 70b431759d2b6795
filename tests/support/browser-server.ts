// Vitest global setup of the browser suite: one Chromium for the whole run. Each test file
// connects to it (tests/support/browser.ts) instead of launching a browser of its own, and
// every test still gets new browser contexts (own cookies, storage and cache), which is all a
// test's isolation ever came from: a browser launched per file was only start-up time.
import { BROWSER_ENDPOINT_ENV, launchBrowserServer } from './chromium';

export default async function setup(): Promise<() => Promise<void>> {
  const server = await launchBrowserServer();
  process.env[BROWSER_ENDPOINT_ENV] = server.wsEndpoint();
  return async () => {
    delete process.env[BROWSER_ENDPOINT_ENV];
    await server.close();
  };
}
