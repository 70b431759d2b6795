// Two server processes on one PostgreSQL database (issue #13): how long after a stock change made
// through process A guests of process B stop seeing the size as in stock, with both guest page
// caches warm; then cache-hit requests/s of a product page over both processes at once.
// Needs BENCH_DATABASE_URL (an admin URL; a throwaway database is made and dropped) and
// `npm run build`. Prints figures; asserts nothing.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { serveNodeArgs } from '~/server/serve-command';
import type { ProductOffer } from '~/shared/contract';

const PORT_A = Number(process.env.BENCH_PORT ?? 3941);
const PORT_B = PORT_A + 1;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const admin = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

function start(port: number, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, serveNodeArgs(), {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      ALLOW_OFFLINE_PAYMENTS: 'true',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

async function waitForPage(port: number): Promise<void> {
  const began = performance.now();
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/`);
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    if (performance.now() - began > 180_000) throw new Error(`port ${port}: no page within 180 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** The JSON-LD availability of each offer of a product page, in the API's offer order. */
async function guestAvailability(
  port: number,
  url: string,
): Promise<{ availability: string[]; xCache: string | null }> {
  const res = await fetch(`http://127.0.0.1:${port}${url}`);
  const html = await res.text();
  for (const m of html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)) {
    const ld = JSON.parse(m[1] ?? '{}') as { '@type'?: string; offers?: Array<{ availability?: string }> };
    if (ld['@type'] === 'Product')
      return { availability: (ld.offers ?? []).map((o) => String(o.availability)), xCache: res.headers.get('x-cache') };
  }
  throw new Error(`no Product JSON-LD on ${url}`);
}

async function setStock(port: number, token: string, offerId: number, quantity: number): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${port}/backend/staff/stock/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ action: 'set', offer_id: offerId, quantity }),
  });
  if (!res.ok) throw new Error(`stock change: ${res.status} ${await res.text()}`);
}

/** ms from now until process B's guest page shows offer `index` as `want` (or 'not InStock'). */
async function timeUntil(
  port: number,
  url: string,
  index: number,
  seen: (availability: string) => boolean,
): Promise<number> {
  const began = performance.now();
  for (;;) {
    const { availability } = await guestAvailability(port, url);
    if (seen(availability[index] ?? '')) return performance.now() - began;
    if (performance.now() - began > 60_000) throw new Error('not seen within 60 s');
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function main(): Promise<void> {
  if (!fs.existsSync('build/server/index.js')) throw new Error('run `npm run build` first');
  const name = `vitrina_two_${process.pid}_${Date.now().toString(36)}`;
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`create database ${name}`);
  await c.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-two-'));
  const staffToken = crypto.randomBytes(24).toString('base64url');
  // One data folder and the same secrets for both: sessions and the staff key work on either.
  const env = {
    DATABASE_URL: url.toString(),
    DATA_DIR: dataDir,
    STAFF_TOKEN: staffToken,
    AUTH_SECRET: crypto.randomBytes(32).toString('base64url'),
  };
  const children: ChildProcess[] = [];
  try {
    // A first (migrates and seeds), then B on the same database.
    children.push(start(PORT_A, env));
    await waitForPage(PORT_A);
    children.push(start(PORT_B, env));
    await waitForPage(PORT_B);

    const listing = (await (await fetch(`http://127.0.0.1:${PORT_A}/backend/catalog/all/`)).json()) as {
      ITEMS: Array<{ DETAIL_PAGE_URL: string }>;
    };
    let productUrl = '';
    let offers: ProductOffer[] = [];
    for (const item of listing.ITEMS) {
      const product = (await (await fetch(`http://127.0.0.1:${PORT_A}/backend${item.DETAIL_PAGE_URL}`)).json()) as {
        ITEM: { OFFERS: ProductOffer[] };
      };
      const inStock = product.ITEM.OFFERS.filter((o) => o.AVAILABLE === 'Y' && o.QUANTITY > 0);
      if (inStock.length >= ROUNDS) {
        productUrl = item.DETAIL_PAGE_URL;
        offers = product.ITEM.OFFERS;
        break;
      }
    }
    if (!productUrl) throw new Error(`no product with ${ROUNDS} sizes in stock`);

    const seenGone: number[] = [];
    const seenBack: number[] = [];
    const candidates = offers
      .map((o, index) => ({ o, index }))
      .filter(({ o }) => o.AVAILABLE === 'Y' && o.QUANTITY > 0);
    for (const { o, index } of candidates.slice(0, ROUNDS)) {
      // Both caches warm: the page is a hit in A and in B before the change.
      for (const port of [PORT_A, PORT_B]) {
        await guestAvailability(port, productUrl);
        const { availability, xCache } = await guestAvailability(port, productUrl);
        if (availability[index] !== 'https://schema.org/InStock' && availability[index] !== 'InStock')
          throw new Error(`offer ${o.ID} not in stock before the change`);
        if (xCache !== 'HIT') throw new Error(`port ${port}: expected a cache hit before the change, got ${xCache}`);
      }
      await setStock(PORT_A, staffToken, o.ID, 0);
      seenGone.push(await timeUntil(PORT_B, productUrl, index, (a) => !a.endsWith('InStock')));
      await setStock(PORT_A, staffToken, o.ID, o.QUANTITY);
      seenBack.push(await timeUntil(PORT_B, productUrl, index, (a) => a.endsWith('InStock')));
    }

    // Cache hits over both processes: half the connections on each port, at the same time.
    await Promise.all(
      [PORT_A, PORT_B].map((port) =>
        autocannon({ url: `http://127.0.0.1:${port}${productUrl}`, connections: 16, duration: 2 }),
      ),
    );
    const loads = await Promise.all(
      [PORT_A, PORT_B].map((port) =>
        autocannon({ url: `http://127.0.0.1:${port}${productUrl}`, connections: 16, duration: DURATION }),
      ),
    );
    const rps = loads.reduce((n, r) => n + r.requests.average, 0);
    const errors = loads.reduce((n, r) => n + r.errors + r.non2xx, 0);

    const fmt = (xs: number[]) =>
      `max ${Math.round(Math.max(...xs))} ms, each ${xs.map((x) => Math.round(x)).join(' / ')} ms`;
    console.log(`\nVitrina: 2 processes on one PostgreSQL (${os.cpus().length} cores), product ${productUrl}`);
    console.log(`  size set to 0 through A, seen out of stock by B's guests   ${fmt(seenGone)}`);
    console.log(`  size back in stock through A, seen in stock by B's guests  ${fmt(seenBack)}`);
    console.log(
      `  cache hits over both (2 × 16 connections, ${DURATION} s)       ${Math.round(rps)} req/s (A ${Math.round(loads[0]?.requests.average ?? 0)}, B ${Math.round(loads[1]?.requests.average ?? 0)}), p99 ${Math.max(...loads.map((l) => l.latency.p99))} ms${errors ? `, errors ${errors}` : ''}`,
    );
  } finally {
    for (const child of children) await stop(child);
    fs.rmSync(dataDir, { recursive: true, force: true });
    const d = new pg.Client({ connectionString: admin });
    await d.connect();
    await d.query(`drop database if exists ${name} with (force)`);
    await d.end();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
