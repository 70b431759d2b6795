// Screenshots of pages at phone (390) and desktop (1280) widths, for a look before calling
// work done: node --import tsx scripts/screenshots.ts OUT_DIR /path/ /other/path/ ...
// `--cookie name=value` (repeatable) sets a cookie first, e.g. a basket: --cookie cart=201:1,305:2
import fs from 'node:fs';
import path from 'node:path';
import { startTestShop } from '~/tests/support/server';
import { DESKTOP, launchBrowser, MOBILE, newShopperContext, StorefrontPage } from '~/tests/support/browser';

const args = process.argv.slice(2);
const cookies: { name: string; value: string }[] = [];
for (let i = args.indexOf('--cookie'); i !== -1; i = args.indexOf('--cookie')) {
  const [name = '', ...value] = (args[i + 1] ?? '').split('=');
  cookies.push({ name, value: encodeURIComponent(value.join('=')) });
  args.splice(i, 2);
}
const [outDir = 'tmp/shots', ...paths] = args;
const targets = paths.length ? paths : ['/', '/catalog/woman/denim/', '/about/', '/no-such-page/'];
const fullPage = process.env.FULL_PAGE !== '0';

fs.mkdirSync(outDir, { recursive: true });
const shop = await startTestShop({ withStorefront: true });
const browser = await launchBrowser();
try {
  for (const [label, viewport] of [
    ['mobile', MOBILE],
    ['desktop', DESKTOP],
  ] as const) {
    const context = await newShopperContext(browser, shop.baseUrl, viewport);
    await context.addCookies(cookies.map((c) => ({ ...c, url: shop.baseUrl })));
    const page = await context.newPage();
    for (const target of targets) {
      await new StorefrontPage(page).goto(target);
      // Every lazy image loaded, so the picture is what a shopper sees after scrolling.
      await page.evaluate(async () => {
        for (const img of Array.from(document.images)) img.loading = 'eager';
        await Promise.all(
          Array.from(document.images).map((img) => (img.complete ? null : new Promise((r) => img.addEventListener('load', r, { once: true })))),
        );
      });
      const file = path.join(outDir, `${label}${target.replace(/[^a-z0-9]+/gi, '_')}.png`);
      await page.screenshot({ path: file, fullPage });
      console.log(file);
    }
    await context.close();
  }
} finally {
  await browser.close();
  await shop.close();
}
