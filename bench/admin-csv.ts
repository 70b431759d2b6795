// The catalogue's CSV at 10 000 rows (issue #30 "Bulk work"; goal: 10 000 rows within a minute):
// the export, the import's dry run and its confirmation, each timed as the admin routes run them
// (the model functions in runAdminChange's one transaction, with the audit rows: one per product
// and the import's own), on PGlite and, with BENCH_DATABASE_URL or DATABASE_URL (an admin URL: a
// throwaway database is made there), on PostgreSQL. The file changes every row: a price 100 ₽
// higher and one more in stock, so every row is an offer update and a stock move.
//   npm run bench:admin-csv -- [--products 2500] [--rows 10000] [--db pglite,postgres]
// Prints figures; asserts nothing.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { queryRows } from '~/db/client.server';
import { seedDatabase } from '~/db/seed/seed.server';
import { staff } from '~/db/schema';
import { csvLine, parseCsv } from '~/core/csv';
import { CSV_HEADING, kopecksToCsv } from '~/core/catalogue-csv';
import { parseRoublesToKopecks } from '~/core/money';
import {
  applyCatalogueImport,
  catalogueExportBatches,
  checkCatalogueImport,
} from '~/models/admin-catalogue-bulk.server';
import { runAdminChange } from '~/models/admin-change.server';
import type { AuditActor } from '~/models/audit.server';
import { openBenchDatabase } from './support';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : (process.argv[i + 1] ?? fallback);
};
process.env.BENCH_DATABASE_URL ??= process.env.DATABASE_URL;
const PRODUCTS = Number(arg('products', '2500'));
const ROWS = Number(arg('rows', '10000'));
const DBS = arg('db', process.env.BENCH_DATABASE_URL ? 'pglite,postgres' : 'pglite').split(',');

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main() {
  const lines: string[] = [];
  for (const kind of DBS) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-bench-csv-'));
    const { handle, drop } = await openBenchDatabase(kind, dataDir, 4);
    try {
      await handle.migrate();
      await seedDatabase(handle.db, { products: PRODUCTS });
      const db = handle.db;
      const [member] = await db
        .insert(staff)
        .values({ email: `bench-${crypto.randomUUID()}@vitrina.example`, role: 'admin', name: 'Bench' })
        .returning({ id: staff.id });
      const staffId = member?.id as number;
      const actor: AuditActor = {
        kind: 'staff',
        staffId,
        label: 'bench',
        sessionId: null,
        ip: '127.0.0.1',
        requestId: crypto.randomUUID(),
      };

      // The export, whole, as the route streams it.
      let t = performance.now();
      let exported = csvLine(CSV_HEADING);
      let exportedRows = 0;
      for await (const batch of catalogueExportBatches(db, ';')) {
        exported += batch.map((r) => csvLine(r)).join('');
        exportedRows += batch.length;
      }
      const exportMs = performance.now() - t;

      // The file staff send back: the first ROWS sized rows, each 100 ₽ dearer and one more in stock.
      const { rows } = parseCsv(exported);
      const sized = rows.slice(1).filter((r) => r.fields[5] && !(r.fields[0] ?? '').startsWith('VT-GC'));
      const chosen = sized.slice(0, ROWS);
      // Rows of one article carry the same price change, so a product's price follows its first row.
      const file =
        '\uFEFF' +
        csvLine(CSV_HEADING) +
        chosen
          .map((r) => {
            const f = [...r.fields];
            f[8] = kopecksToCsv((parseRoublesToKopecks(f[8] ?? '0') ?? 0) + 10_000, ';');
            f[9] = f[9] ? kopecksToCsv((parseRoublesToKopecks(f[9]) ?? 0) + 10_000, ';') : '';
            f[10] = String(Number(f[10] ?? 0) + 1);
            return csvLine(f);
          })
          .join('');

      t = performance.now();
      let importId = 0;
      let summary = { rows: 0, change_rows: 0, error_rows: 0, errors: [] as { error: string }[] };
      await runAdminChange({
        db,
        actor,
        idempotency: null,
        change: async (tx) => {
          const r = await checkCatalogueImport(tx, {
            csv: file,
            fileName: 'bench.csv',
            staffId,
            canAdjustStock: true,
            now: new Date(),
          });
          importId = r.id;
          summary = r.summary;
          return {
            ok: true,
            body: {},
            audit: { action: 'catalogue.import_check', entityType: 'catalogue_import', entityId: r.id },
          };
        },
      });
      const checkMs = performance.now() - t;
      if (summary.errors.length)
        console.log(
          'first errors:',
          summary.errors.slice(0, 3).map((e) => e.error),
        );

      t = performance.now();
      const applied = await runAdminChange({
        db,
        actor,
        idempotency: null,
        change: async (tx) => {
          const r = await applyCatalogueImport(tx, { id: importId, staffId, now: new Date() });
          if (!r.ok) return { ok: false, status: r.status, body: r };
          return { ok: true, body: { changed: r.changed, moved: r.moved }, audit: r.audit };
        },
      });
      const applyMs = performance.now() - t;
      const [moves] = await queryRows<{ n: number }>(
        db,
        sql`select count(*)::int as n from stock_moves where reason = 'import'`,
      );
      lines.push(
        `${kind}: ${PRODUCTS} products, export ${exportedRows} rows ${seconds(exportMs)} (${(exported.length / 1e6).toFixed(1)} MB); ` +
          `file of ${chosen.length} rows (${(file.length / 1e6).toFixed(1)} MB): dry run ${seconds(checkMs)} ` +
          `(${summary.change_rows} to change, ${summary.error_rows} with errors), confirm ${seconds(applyMs)} ` +
          `(status ${applied.status}, ${JSON.stringify(applied.body)}, ${moves?.n ?? 0} stock moves 'import'); ` +
          `dry run + confirm ${seconds(checkMs + applyMs)}`,
      );
      console.log(lines.at(-1));
    } finally {
      await handle.close();
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  console.log(
    `\nVitrina: catalogue CSV at ${ROWS} rows (${os.cpus().length} cores, load ${os.loadavg()[0]?.toFixed(1)})`,
  );
  for (const l of lines) console.log(`  ${l}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
