// The 1C exchange at catalogue scale (issue #31, docs/exchange-1c.md): a full package of 10 000
// products and 100 000 offers (import.xml then offers.xml, generated here as files on disk), and
// a stock-only package of 100 000 offers, each through the real protocol over HTTP (checkauth,
// init, the file in file_limit pieces, mode=import until success), on PGlite on disk.
//   npm run bench:1c [-- --products 10000] [-- --sizes 10] [-- --step 500]
// Prints the time of each phase and the process's peak resident memory (VmHWM); asserts nothing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadEnv } from '~/server/env.server';
import { openDatabase } from '~/db/client.server';
import { seedDatabase } from '~/db/seed/seed.server';
import { DEFAULT_EXCHANGE_IMPORT_STEP, buildServer } from '~/server/app.server';
import { staff } from '~/db/schema';
import { hashPassword } from '~/models/staff-secrets.server';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : (process.argv[i + 1] ?? fallback);
};
const PRODUCTS = Number(arg('products', '10000'));
const SIZES = Number(arg('sizes', '10'));
/** Unset: the server's default for the database (DEFAULT_EXCHANGE_IMPORT_STEP). */
const STEP = arg('step', '');
const MB = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const peak = () => Number(/^VmHWM:\s+(\d+) kB/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) * 1024;
const guid = (kind: number, i: number) =>
  `${kind.toString(16).padStart(8, '0')}-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;

/** Writes a file in pieces (never the whole text in memory). */
async function writeXml(file: string, parts: () => Generator<string>): Promise<number> {
  const out = fs.createWriteStream(file);
  for (const part of parts()) if (!out.write(part)) await new Promise<void>((r) => out.once('drain', () => r()));
  await new Promise<void>((r) => out.end(r));
  return fs.statSync(file).size;
}

function* catalog(): Generator<string> {
  yield `<?xml version="1.0" encoding="UTF-8"?>\n<КоммерческаяИнформация ВерсияСхемы="2.05" ДатаФормирования="2026-03-01T10:00:00">
<Классификатор><Ид>cl</Ид><Наименование>Классификатор</Наименование><Группы>`;
  for (let g = 0; g < 20; g++) yield `<Группа><Ид>${guid(1, g)}</Ид><Наименование>Группа ${g}</Наименование></Группа>`;
  yield `</Группы><Свойства><Свойство><Ид>prop-color</Ид><Наименование>Цвет</Наименование></Свойство></Свойства></Классификатор>
<Каталог СодержитТолькоИзменения="false"><Ид>cat</Ид><ИдКлассификатора>cl</ИдКлассификатора><Наименование>Каталог</Наименование><Товары>\n`;
  for (let i = 0; i < PRODUCTS; i++)
    yield `<Товар><Ид>${guid(2, i)}</Ид><Артикул>BN-${i}</Артикул><Наименование>Платье ${i}</Наименование><БазоваяЕдиница Код="796">шт</БазоваяЕдиница><Группы><Ид>${guid(1, i % 20)}</Ид></Группы><Описание>Описание товара ${i}: вискоза, длина миди.</Описание><ЗначенияСвойств><ЗначенияСвойства><Ид>prop-color</Ид><Значение>Цвет ${i % 12}</Значение></ЗначенияСвойства></ЗначенияСвойств></Товар>\n`;
  yield `</Товары></Каталог></КоммерческаяИнформация>\n`;
}

function* offersFile(stockOnly: boolean, round: number): Generator<string> {
  yield `<?xml version="1.0" encoding="UTF-8"?>\n<КоммерческаяИнформация ВерсияСхемы="2.05" ДатаФормирования="2026-03-01T10:00:00">
<ПакетПредложений СодержитТолькоИзменения="${stockOnly}"><Ид>cat#</Ид><Наименование>Пакет</Наименование><ИдКаталога>cat</ИдКаталога>
<ТипыЦен><ТипЦены><Ид>retail</Ид><Наименование>Розничная</Наименование><Валюта>RUB</Валюта></ТипЦены><ТипЦены><Ид>old</Ид><Наименование>Старая цена</Наименование><Валюта>RUB</Валюта></ТипЦены></ТипыЦен><Предложения>\n`;
  for (let i = 0; i < PRODUCTS; i++)
    for (let s = 0; s < SIZES; s++) {
      const id = `${guid(2, i)}#${guid(3, s)}`;
      const quantity = (i + s + round) % 7;
      yield stockOnly
        ? `<Предложение><Ид>${id}</Ид><Количество>${quantity}</Количество></Предложение>\n`
        : `<Предложение><Ид>${id}</Ид><Наименование>Платье ${i}, ${40 + 2 * s}</Наименование><БазоваяЕдиница Код="796">шт</БазоваяЕдиница><ХарактеристикиТовара><ХарактеристикаТовара><Наименование>Размер</Наименование><Значение>${40 + 2 * s}</Значение></ХарактеристикаТовара></ХарактеристикиТовара><Цены><Цена><ИдТипаЦены>retail</ИдТипаЦены><ЦенаЗаЕдиницу>${3000 + (i % 50) * 100}.00</ЦенаЗаЕдиницу><Валюта>RUB</Валюта></Цена><Цена><ИдТипаЦены>old</ИдТипаЦены><ЦенаЗаЕдиницу>${5000 + (i % 50) * 100}</ЦенаЗаЕдиницу></Цена></Цены><Количество>${quantity}</Количество></Предложение>\n`;
    }
  yield `</Предложения></ПакетПредложений></КоммерческаяИнформация>\n`;
}

/** The machine's load (other work shares it): said with every figure. */
const load = () =>
  `load average ${os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')} on ${os.cpus().length} cores`;

/**
 * Guests while the exchange runs: two of them, each asking for a catalogue page (the listing's
 * JSON, read from the database: every import step bumps the catalogue version, so the page cache
 * does not hide the database) and then waiting 100 ms, until stopped. Latencies in ms.
 */
function guests(base: string, paths: string[]): { stop: () => Promise<{ ms: number[]; errors: number }> } {
  const ms: number[] = [];
  let errors = 0;
  let running = true;
  const guest = async (n: number) => {
    for (let i = n; running; i++) {
      const t = performance.now();
      try {
        const res = await fetch(`${base}${paths[i % paths.length]}`);
        await res.arrayBuffer();
        if (res.status !== 200) errors++;
      } catch {
        errors++;
      }
      ms.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const all = Promise.all([guest(0), guest(1)]);
  return {
    stop: async () => {
      running = false;
      await all;
      return { ms, errors };
    },
  };
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

/** A database of its own on the PostgreSQL server of TEST_DATABASE_URL or DATABASE_URL (dropped after). */
async function postgresDatabase(adminUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const { default: pg } = await import('pg');
  const name = `vitrina_bench_1c_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-bench-1c-'));
  const pgAdmin = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  const pgDatabase = pgAdmin ? await postgresDatabase(pgAdmin) : null;
  const database = await openDatabase(
    pgDatabase ? { databaseUrl: pgDatabase.url, poolSize: 10 } : { pgliteDir: path.join(dataDir, 'pglite') },
  );
  console.log(`database: ${pgDatabase ? 'PostgreSQL' : 'PGlite on disk'}; ${load()}`);
  await database.migrate();
  await seedDatabase(database.db, { products: 10 });
  const email = 'bench-1c@vitrina.example';
  const password = 'bench exchange password';
  await database.db
    .insert(staff)
    .values({ email, name: '1C', role: 'exchange', passwordHash: await hashPassword(password) });
  const env = loadEnv({
    NODE_ENV: 'production',
    LOG_LEVEL: 'error',
    DATA_DIR: dataDir,
    SEED_ON_START: 'false',
    PORT: '0',
    PUBLIC_SITE_URL: 'https://vitrina.example',
    ...(STEP ? { EXCHANGE_IMPORT_STEP: STEP } : {}),
  });
  const app = await buildServer({ env, database, build: null });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  const endpoint = `${base}/backend/1c/exchange`;
  const files = path.join(dataDir, 'from-1c');
  fs.mkdirSync(files);
  let cookie = '';
  const call = async (query: string, init: RequestInit = {}) => {
    const res = await fetch(`${endpoint}?${query}`, { ...init, headers: { ...(init.headers as object), cookie } });
    return res.text();
  };
  const exchange = async (label: string, name: string, file: string) => {
    const crowd = guests(base, ['/backend/catalog/']);
    // The server's thread blocked (a step's JavaScript, the garbage collector, PGlite's WebAssembly):
    // what every guest waits behind, whatever the database.
    const blocked = monitorEventLoopDelay({ resolution: 10 });
    blocked.enable();
    const t0 = performance.now();
    const auth = await call('type=catalog&mode=checkauth', {
      headers: { authorization: `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}` },
    });
    const [, cookieName, token] = auth.split('\n');
    cookie = `${cookieName}=${token}`;
    const limit = Number(/file_limit=(\d+)/.exec(await call('type=catalog&mode=init'))?.[1]);
    const fd = fs.openSync(file, 'r');
    const buf = Buffer.alloc(limit);
    for (;;) {
      const n = fs.readSync(fd, buf, 0, limit, null);
      if (n === 0) break;
      const answer = await call(`type=catalog&mode=file&filename=${name}`, {
        method: 'POST',
        body: buf.subarray(0, n),
      });
      if (answer !== 'success') throw new Error(answer);
    }
    fs.closeSync(fd);
    const sent = performance.now();
    let calls = 0;
    let answer = '';
    let read = 0;
    // Each import call's time after the first (the read and split): one step each, what a guest may wait on PGlite.
    const stepMs: number[] = [];
    for (;;) {
      const t = performance.now();
      answer = await call(`type=catalog&mode=import&filename=${name}`);
      if (calls === 0) read = performance.now() - t;
      else stepMs.push(performance.now() - t);
      calls++;
      if (!answer.startsWith('progress')) break;
    }
    const slowest = stepMs.indexOf(Math.max(...stepMs)) + 1;
    stepMs.sort((a, b) => a - b);
    const done = performance.now();
    const served = await crowd.stop();
    blocked.disable();
    const sorted = served.ms.sort((a, b) => a - b);
    console.log(
      `${label}: ${((done - t0) / 1000).toFixed(1)} s in all (upload ${((sent - t0) / 1000).toFixed(1)} s, read and split ${(read / 1000).toFixed(1)} s, ${calls} import calls ${((done - sent) / 1000).toFixed(1)} s); peak RSS so far ${MB(peak())}`,
    );
    console.log(`  ${answer.replace(/\n/g, ' | ')}`);
    console.log(
      `  import steps: ${stepMs.length}, p50 ${pct(stepMs, 50).toFixed(0)} ms, p90 ${pct(stepMs, 90).toFixed(0)} ms, max ${(stepMs.at(-1) ?? 0).toFixed(0)} ms (step ${slowest} of ${stepMs.length})`,
    );
    console.log(
      `  guests meanwhile: ${sorted.length} pages, p50 ${pct(sorted, 50).toFixed(0)} ms, p99 ${pct(sorted, 99).toFixed(0)} ms, max ${(sorted.at(-1) ?? 0).toFixed(0)} ms, errors ${served.errors}; ${load()}`,
    );
    console.log(
      `  the server's thread blocked: p99 ${(blocked.percentile(99) / 1e6).toFixed(0)} ms, max ${(blocked.max / 1e6).toFixed(0)} ms`,
    );
  };

  try {
    const importXml = path.join(files, 'import.xml');
    const offersXml = path.join(files, 'offers.xml');
    console.log(
      `import.xml: ${MB(await writeXml(importXml, catalog))}, offers.xml: ${MB(await writeXml(offersXml, () => offersFile(false, 0)))} (${PRODUCTS} products, ${PRODUCTS * SIZES} offers, step ${STEP || `default (${DEFAULT_EXCHANGE_IMPORT_STEP[pgDatabase ? 'postgres' : 'pglite']})`})`,
    );
    console.log(`peak RSS before the exchange: ${MB(peak())}`);
    await exchange('full import.xml', 'import.xml', importXml);
    await exchange('full offers.xml', 'offers.xml', offersXml);
    const stock = path.join(files, 'stock.xml');
    console.log(`stock-only offers.xml: ${MB(await writeXml(stock, () => offersFile(true, 3)))}`);
    await exchange('stock-only offers.xml', 'offers.xml', stock);
  } finally {
    await app.close(); // closes the database too
    await pgDatabase?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

void main();
