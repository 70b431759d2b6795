import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase, queryRows, type DatabaseHandle } from '~/db/client.server';
import { appliedMigrationTimes, applyMigrations, readMigrations } from '~/db/migrate.server';
import { throwawayDatabase } from '~/tests/support/server';

// A shop upgraded on its existing database gets every migration its new version brings,
// whatever their journal times. Drizzle's own migrator applied only migrations newer than the
// newest on record, and this journal's times are out of order (0006's is later than those of
// 0007-0031, 0031's earlier than 0030's): both upgrades below skipped tables and columns the
// code needs. Each runs on a database of its own (PGlite, or TEST_DATABASE_URL's server).

const MIGRATIONS = readMigrations(path.resolve('db/migrations'));
const through = (tag: string) => MIGRATIONS.slice(0, MIGRATIONS.findIndex((m) => m.tag === tag) + 1);

async function emptyDatabase(): Promise<{ handle: DatabaseHandle; drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const handle = await openDatabase({ pgliteDir: 'memory://' });
    return { handle, drop: () => handle.close() };
  }
  const { url, drop } = await throwawayDatabase(adminUrl, 'vitrina_migrations');
  const handle = await openDatabase({ databaseUrl: url, poolSize: 2 });
  return {
    handle,
    async drop() {
      await handle.close();
      await drop();
    },
  };
}

/**
 * Inserts one row into `table` as the schema of the moment has it: `values` as given, every other
 * column that must have a value and has no default by its type. Returns its id.
 */
async function insertRow(handle: DatabaseHandle, table: string, values: Record<string, string | number>) {
  const required = await queryRows<{ name: string; type: string }>(
    handle.db,
    sql`select column_name as name, data_type as type from information_schema.columns
      where table_schema = 'public' and table_name = ${table} and is_nullable = 'NO' and column_default is null`,
  );
  const byType = (type: string): string | number =>
    /int|numeric/.test(type)
      ? 1
      : type === 'boolean'
        ? 'false'
        : /json/.test(type)
          ? '{}'
          : /time|date/.test(type)
            ? '2026-11-01'
            : type === 'ARRAY'
              ? '{}'
              : `${table}-x`;
  const row: Record<string, string | number> = Object.fromEntries(required.map((c) => [c.name, byType(c.type)]));
  Object.assign(row, values);
  const names = Object.keys(row);
  const [inserted] = await queryRows<{ id: number }>(
    handle.db,
    sql.raw(
      `insert into "${table}" (${names.map((n) => `"${n}"`).join(', ')}) values (${names
        .map((n) => `'${String(row[n]).replace(/'/g, "''")}'`)
        .join(', ')}) returning id`,
    ),
  );
  return inserted!.id;
}

async function objectsOfLaterMigrations(handle: DatabaseHandle) {
  const [found] = await queryRows<{ stockMoves: string | null; reviews: string | null; exchangeColumn: number }>(
    handle.db,
    sql`select to_regclass('public.stock_moves')::text as "stockMoves",
          to_regclass('public.reviews')::text as reviews,
          (select count(*)::int from information_schema.columns
            where table_name = 'orders' and column_name = 'exchange_1c') as "exchangeColumn"`,
  );
  return found;
}

describe('upgrading a database migrated by an earlier version', () => {
  it.each([
    ['0012_certificates_loyalty_refunds', 'before the stock ledger: 0006 on record, with a time later than 0007-0031'],
    ['0019_sent_messages', 'the last before the stock ledger, whose 0020 writes opening moves that 0025 then alters'],
    ['0030_catalogue_imports', "with 0030 and not 0031, whose time is earlier than 0030's"],
  ])('migrated through %s (%s), with an offer in stock: the start applies every later migration', async (last) => {
    const { handle, drop } = await emptyDatabase();
    try {
      const earlier = through(last);
      expect(earlier.length).toBeGreaterThan(0);
      expect(await applyMigrations(handle.db, earlier)).toBe(earlier.length);
      expect(await objectsOfLaterMigrations(handle)).toMatchObject({ exchangeColumn: 0 });
      // A shop that sold things: a section, a product and a size with 3 in stock.
      const sectionId = await insertRow(handle, 'sections', { code: 'upgrade', name: 'Раздел' });
      const productId = await insertRow(handle, 'products', {
        section_id: sectionId,
        name: 'Платье',
        slug: 'upgrade-dress',
      });
      const offerId = await insertRow(handle, 'offers', { product_id: productId, quantity: 3 });

      await handle.migrate();

      expect([...(await appliedMigrationTimes(handle.db))].sort()).toEqual(MIGRATIONS.map((m) => m.when).sort());
      expect(await objectsOfLaterMigrations(handle)).toEqual({
        stockMoves: 'stock_moves',
        reviews: 'reviews',
        exchangeColumn: 1,
      });
      // The stock ledger opened with the stock the shop had (0020), and balances.
      const [moves] = await queryRows<{ sum: number }>(
        handle.db,
        sql`select coalesce(sum(delta), 0)::int as sum from stock_moves where offer_id = ${offerId}`,
      );
      expect(moves?.sum ?? 0).toBe(last < '0020' ? 3 : 0);
      // Nothing is applied twice: a second start finds them all on record.
      expect(await applyMigrations(handle.db, MIGRATIONS)).toBe(0);
    } finally {
      await drop();
    }
  });
});
