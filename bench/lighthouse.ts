// Lighthouse 12, mobile preset, in Debian's Chromium, on the home, a category and a product
// page of a freshly seeded shop. Prints the scores and the JavaScript sent; asserts nothing.
//   npm run build && node --import tsx bench/lighthouse.ts
import fs from 'node:fs';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { startTestShop } from '../tests/support/server';
import { chromePath } from '../tests/support/browser';
import type { CatalogSectionResponse } from '../api/contract';

const PORT = Number(process.env.LIGHTHOUSE_PORT ?? 3931);

async function main() {
  const shop = await startTestShop({ withStorefront: true, port: PORT });
  const chrome = await chromeLauncher.launch({
    chromePath: chromePath(),
    chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-quic', '--no-first-run', '--disable-sync'],
  });
  try {
    const listing = (await (await fetch(`${shop.baseUrl}/backend/catalog/woman/uteplyennye_palto/`)).json()) as CatalogSectionResponse;
    const product = listing.ITEMS[0]?.DETAIL_PAGE_URL ?? '/';
    const pages = [
      ['home', '/'],
      ['category', '/catalog/woman/uteplyennye_palto/'],
      ['product', product],
    ] as const;
    // One unmeasured pass draws and caches the photos, as a running shop would have them.
    for (const [, path] of pages) await fetch(`${shop.baseUrl}${path}`);
    const rows: string[] = [];
    for (const [name, path] of pages) {
      await lighthouse(`${shop.baseUrl}${path}`, { port: chrome.port, logLevel: 'error', output: 'json' });
      const result = await lighthouse(`${shop.baseUrl}${path}`, {
        port: chrome.port,
        logLevel: 'error',
        output: 'json',
        onlyCategories: ['performance', 'accessibility', 'seo', 'best-practices'],
      });
      if (!result) throw new Error(`no result for ${path}`);
      // LIGHTHOUSE_JSON_DIR keeps the full reports, to see which element shifted or what was slow.
      if (process.env.LIGHTHOUSE_JSON_DIR) {
        fs.mkdirSync(process.env.LIGHTHOUSE_JSON_DIR, { recursive: true });
        fs.writeFileSync(`${process.env.LIGHTHOUSE_JSON_DIR}/${name}.json`, JSON.stringify(result.lhr));
      }
      const { categories, audits } = result.lhr;
      const score = (k: string) => Math.round((categories[k]?.score ?? 0) * 100);
      const requests = (audits['network-requests']?.details as { items?: { resourceType?: string; transferSize?: number }[] } | undefined)?.items ?? [];
      const jsKb = requests.filter((r) => r.resourceType === 'Script').reduce((n, r) => n + (r.transferSize ?? 0), 0) / 1024;
      const metric = (id: string) => audits[id]?.displayValue ?? '-';
      rows.push(
        `${name.padEnd(9)} performance ${score('performance')}  accessibility ${score('accessibility')}  SEO ${score('seo')}  best practices ${score('best-practices')}  | JS ${jsKb.toFixed(1)} KB compressed | LCP ${metric('largest-contentful-paint')}, TBT ${metric('total-blocking-time')}, CLS ${metric('cumulative-layout-shift')}`,
      );
      const failed = Object.values(audits).filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode === 'binary').map((a) => a.id);
      if (failed.length) rows.push(`          failing checks: ${failed.join(', ')}`);
    }
    console.log(`\nLighthouse 12 (mobile preset, ${chromePath()})`);
    for (const r of rows) console.log(r);
  } finally {
    chrome.kill();
    await shop.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
