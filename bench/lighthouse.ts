// Lighthouse 12, mobile preset, in Debian's Chromium, on the home, a category and a product
// page of a freshly seeded shop, and the basket holding one size of that product. Prints the scores and the JavaScript sent; asserts nothing.
// Performance varies by a point or two between runs, so each page is measured LIGHTHOUSE_RUNS
// times (default 3) and the lowest and median scores are printed.
//   npm run build && node --import tsx bench/lighthouse.ts
//   LIGHTHOUSE_PAGES=category LIGHTHOUSE_RUNS=5 npm run bench:lighthouse
import fs from 'node:fs';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { startTestShop } from '~/tests/support/server';
import { chromePath } from '~/tests/support/browser';
import type { CatalogSectionResponse, ProductResponse } from '~/shared/contract';

const PORT = Number(process.env.LIGHTHOUSE_PORT ?? 3931);
const RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 3));
const ONLY = process.env.LIGHTHOUSE_PAGES?.split(',');

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? 0;

async function main() {
  const shop = await startTestShop({ withStorefront: true, port: PORT });
  const chrome = await chromeLauncher.launch({
    chromePath: chromePath(),
    chromeFlags: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-quic',
      '--no-first-run',
      '--disable-sync',
    ],
  });
  try {
    const listing = (await (
      await fetch(`${shop.baseUrl}/backend/catalog/woman/uteplyennye_palto/`)
    ).json()) as CatalogSectionResponse;
    const product = listing.ITEMS[0]?.DETAIL_PAGE_URL ?? '/';
    const detail = (await (await fetch(`${shop.baseUrl}/backend${product}`)).json()) as ProductResponse;
    const offer = detail.ITEM.OFFERS.find((o) => o.AVAILABLE === 'Y');
    if (!offer) throw new Error(`no size in stock on ${product}`);
    // The basket as a guest who put one size in it has it: the cart cookie (offer id:quantity).
    const basketCookie = { Cookie: `cart=${offer.ID}:1` };
    const pages = (
      [
        ['home', '/', {}],
        ['category', '/catalog/woman/uteplyennye_palto/', {}],
        ['product', product, {}],
        ['basket', '/basket/', basketCookie],
      ] as const
    ).filter(([name]) => !ONLY || ONLY.includes(name));
    // One unmeasured pass draws and caches the photos, as a running shop would have them.
    for (const [, path, headers] of pages) await fetch(`${shop.baseUrl}${path}`, { headers });
    const rows: string[] = [];
    for (const [name, path, extraHeaders] of pages) {
      // A first, unscored run warms the server's caches and the browser's compile cache.
      await lighthouse(`${shop.baseUrl}${path}`, {
        port: chrome.port,
        logLevel: 'error',
        output: 'json',
        extraHeaders,
      });
      const runs: {
        perf: number;
        a11y: number;
        seo: number;
        bp: number;
        jsKb: number;
        fcp: number;
        lcp: number;
        tbt: number;
        cls: number;
        failed: string[];
      }[] = [];
      for (let run = 0; run < RUNS; run += 1) {
        const result = await lighthouse(`${shop.baseUrl}${path}`, {
          port: chrome.port,
          logLevel: 'error',
          output: 'json',
          extraHeaders,
          onlyCategories: ['performance', 'accessibility', 'seo', 'best-practices'],
        });
        if (!result) throw new Error(`no result for ${path}`);
        // LIGHTHOUSE_JSON_DIR keeps the full reports, to see which element shifted or what was slow.
        if (process.env.LIGHTHOUSE_JSON_DIR) {
          fs.mkdirSync(process.env.LIGHTHOUSE_JSON_DIR, { recursive: true });
          fs.writeFileSync(`${process.env.LIGHTHOUSE_JSON_DIR}/${name}-${run + 1}.json`, JSON.stringify(result.lhr));
        }
        const { categories, audits } = result.lhr;
        const score = (k: string) => Math.round((categories[k]?.score ?? 0) * 100);
        const requests =
          (
            audits['network-requests']?.details as
              { items?: { resourceType?: string; transferSize?: number }[] } | undefined
          )?.items ?? [];
        const numeric = (id: string) => audits[id]?.numericValue ?? Number.NaN;
        runs.push({
          perf: score('performance'),
          a11y: score('accessibility'),
          seo: score('seo'),
          bp: score('best-practices'),
          jsKb:
            requests.filter((r) => r.resourceType === 'Script').reduce((n, r) => n + (r.transferSize ?? 0), 0) / 1024,
          fcp: numeric('first-contentful-paint'),
          lcp: numeric('largest-contentful-paint'),
          tbt: numeric('total-blocking-time'),
          cls: numeric('cumulative-layout-shift'),
          failed: Object.values(audits)
            .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode === 'binary')
            .map((a) => a.id),
        });
      }
      const of = (k: 'perf' | 'a11y' | 'seo' | 'bp' | 'jsKb' | 'fcp' | 'lcp' | 'tbt' | 'cls') => runs.map((r) => r[k]);
      const perf = of('perf');
      rows.push(
        `${name.padEnd(9)} performance ${Math.min(...perf)} lowest, ${median(perf)} median (${perf.join(' ')})  accessibility ${Math.min(...of('a11y'))}  SEO ${Math.min(...of('seo'))}  best practices ${Math.min(...of('bp'))}` +
          `  | JS ${Math.max(...of('jsKb')).toFixed(1)} KB compressed | median FCP ${(median(of('fcp')) / 1000).toFixed(1)} s, LCP ${(median(of('lcp')) / 1000).toFixed(1)} s, TBT ${Math.round(median(of('tbt')))} ms, CLS ${Math.max(...of('cls')).toFixed(3)}`,
      );
      const failed = [...new Set(runs.flatMap((r) => r.failed))];
      if (failed.length) rows.push(`          failing checks: ${failed.join(', ')}`);
    }
    console.log(`\nLighthouse 12 (mobile preset, ${chromePath()}), ${RUNS} run(s) per page`);
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
