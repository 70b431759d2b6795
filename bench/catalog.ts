// Catalogue API latency and server-rendered page throughput at 1 000, 10 000 and 100 000
// products, on PGlite and (with BENCH_DATABASE_URL, an admin URL) on PostgreSQL.
//   node --import tsx bench/catalog.ts [--sizes 1000,10000,100000] [--db pglite,postgres]
// Prints p50/p95 per API call and SSR requests per second; asserts nothing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ServerBuild } from 'react-router';
import { loadEnv } from '~/server/env.server';
import { httpLoad, loadTool, openBenchDatabase, pct } from './support';
import { seedDatabase } from '~/db/seed/seed.server';
import { buildServer } from '~/server/app.server';
import type { CatalogSectionResponse, SectionsResponse, SitemapProducts } from '~/shared/contract';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : (process.argv[i + 1] ?? fallback);
};
const SIZES = arg('sizes', '1000,10000,100000').split(',').map(Number);
const DBS = arg('db', process.env.BENCH_DATABASE_URL ? 'pglite,postgres' : 'pglite').split(',');
const CALLS = Number(arg('calls', '300'));
const SSR_SECONDS = Number(arg('seconds', '5'));

async function timeCalls(base: string, urls: string[]): Promise<{ p50: number; p95: number }> {
  for (const u of urls.slice(0, 20)) await (await fetch(base + u)).arrayBuffer(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const url = urls[i % urls.length] as string;
    const t = performance.now();
    const res = await fetch(base + url);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { p50: +pct(times, 50).toFixed(2), p95: +pct(times, 95).toFixed(2) };
}

/** Rendered pages per second: wrk in its own process when installed (support.ts), the page cache off. */
async function throughput(url: string): Promise<number> {
  const r = await httpLoad(url, 16, SSR_SECONDS);
  if (r.errors) throw new Error(`${url}: ${r.errors} errors or non-2xx answers`);
  return r.rps;
}

async function main() {
  const buildFile = path.resolve('build/server/index.js');
  const build = fs.existsSync(buildFile) ? ((await import(pathToFileURL(buildFile).href)) as ServerBuild) : null;
  if (!build) console.log('(no storefront build: SSR throughput skipped; run `npm run build`)');
  const results: string[] = [];
  for (const kind of DBS) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-bench-'));
    const { handle, drop } = await openBenchDatabase(kind, dataDir);
    try {
      await handle.migrate();
      for (const size of SIZES) {
        const t0 = performance.now();
        await seedDatabase(handle.db, { products: size });
        const seedS = ((performance.now() - t0) / 1000).toFixed(1);
        // The page cache off: this measures rendering at each catalogue size, not the cache.
        const env = loadEnv({
          NODE_ENV: 'production',
          LOG_LEVEL: 'silent',
          DATA_DIR: dataDir,
          SEED_ON_START: 'false',
          PORT: '0',
          PAGE_CACHE: 'off',
        });
        const app = await buildServer({
          env,
          database: { ...handle, close: async () => {} },
          build,
          clientDir: path.resolve('build/client'),
        });
        await app.listen({ port: 0, host: '127.0.0.1' });
        const addr = app.server.address();
        const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;

        const menu = (await (await fetch(`${base}/backend/catalog/?iscollection=no`)).json()) as SectionsResponse;
        const sectionUrls = menu.SECTIONS.flatMap((s) => s.SECOND_LVL.map((c) => c.SECTION_PAGE_URL));
        // Listing with two filters and a sort: a size and a price range taken from each section's facets.
        const listings: string[] = [];
        for (const [i, url] of sectionUrls.entries()) {
          const page = (await (await fetch(`${base}/backend${url}`)).json()) as CatalogSectionResponse;
          const size = page.FILTER.find((f) => f.CODE === 'size');
          const price = page.FILTER.find((f) => f.CODE === 'price');
          const value = size && size.CODE !== 'price' ? size.VALUES[i % size.VALUES.length] : undefined;
          if (!value || !price || price.CODE !== 'price') continue;
          const mid = Math.round((price.VALUES.MIN + price.VALUES.MAX) / 2);
          listings.push(
            `${url}filter/size-is-${value.URL_ID}/price-base-from-${price.VALUES.MIN}-to-${mid}/apply/?sort=${i % 2 ? 'price_asc' : 'new'}`,
          );
        }
        const sitemap = (await (await fetch(`${base}/backend/sitemap/products/?page=1`)).json()) as SitemapProducts;
        const step = Math.max(1, Math.floor(sitemap.urls.length / 200));
        const productUrls = sitemap.urls.filter((_, i) => i % step === 0).map((u) => u.loc);
        const queries = [
          'пальто',
          'платье',
          'джинсы',
          'пльто',
          'кашемир',
          'свитер чёрный',
          'пал',
          'шёлк',
          'VT-26-001',
          'юбка миди',
        ].map((q) => `/api/search?q=${encodeURIComponent(q)}`);

        const listing = await timeCalls(`${base}/backend`, listings);
        const product = await timeCalls(`${base}/backend`, productUrls);
        const search = await timeCalls(`${base}/backend`, queries);
        let ssr = '';
        if (build) {
          const cat = await throughput(`${base}${sectionUrls[0]}`);
          const prod = await throughput(`${base}${productUrls[0]}`);
          ssr = ` | SSR category ${cat} req/s, product ${prod} req/s`;
        }
        const line = `${kind.padEnd(8)} ${String(size).padStart(6)} products (seed ${seedS} s) | listing p50 ${listing.p50} p95 ${listing.p95} ms | product p50 ${product.p50} p95 ${product.p95} ms | search p50 ${search.p50} p95 ${search.p95} ms${ssr}`;
        console.log(line);
        results.push(line);
        await app.close();
      }
    } finally {
      await handle.close();
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  console.log(
    `\nVitrina catalogue bench (${os.cpus().length} cores, ${CALLS} sequential calls per API figure, ${SSR_SECONDS} s of 16 connections from ${loadTool} per SSR figure, page cache off)`,
  );
  for (const r of results) console.log(r);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
