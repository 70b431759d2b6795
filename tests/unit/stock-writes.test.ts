// The stock ledger holds only if nothing else writes an offer's quantity: models/stock.server.ts
// moveStock is the one writer (and the one writer of stock_moves besides the seed's opening
// moves). This reads the code and fails on any other update of offers.quantity or insert into
// stock_moves, in drizzle or in SQL, wherever it is (models, api, scripts, seed, benches, tests).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const FOLDERS = ['api', 'app', 'bench', 'core', 'db', 'integrations', 'models', 'scripts', 'server', 'shared', 'tests'];
/** The ledger itself, and the seed's opening moves (db/ cannot call models/); the ledger test's deliberate slip. */
const QUANTITY_WRITERS = new Set([
  'models/stock.server.ts',
  // Writes a quantity behind the ledger's back on purpose, to see the ledger check catch it (and puts it back).
  'tests/api/stock-ledger.test.ts',
]);
const MOVE_WRITERS = new Set(['models/stock.server.ts', 'db/seed/opening-stock.server.ts']);

/** What in `source` writes offers.quantity or stock_moves, as short descriptions. */
function stockWrites(source: string): { quantity: string[]; moves: string[] } {
  const quantity: string[] = [];
  const moves: string[] = [];
  // drizzle: db.update(offers).set({ …quantity… }) (any set expression up to its where/returning).
  for (const m of source.matchAll(/\.update\(\s*offers\s*\)\s*\.set\(([\s\S]*?)\)\s*\.(?:where|returning)\b/g)) {
    if (/\bquantity\b/.test(m[1] ?? '')) quantity.push(m[0].slice(0, 80));
  }
  // SQL: update offers set … quantity = (quoted or not, any case).
  for (const m of source.matchAll(/update\s+"?offers"?\s+set\s+[^;`]*?"?\bquantity"?\s*=/gi))
    quantity.push(m[0].slice(0, 80));
  for (const m of source.matchAll(/\.insert\(\s*stockMoves\s*\)|insert\s+into\s+"?stock_moves"?/gi)) moves.push(m[0]);
  return { quantity, moves };
}

function sourceFiles(): string[] {
  return FOLDERS.flatMap((folder) =>
    (fs.readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' }) as string[])
      .filter((f) => /\.(ts|tsx)$/.test(f) && !f.includes('node_modules') && !f.includes('+types'))
      .map((f) => path.join(folder, f).split(path.sep).join('/')),
  );
}

describe('the stock ledger is the one writer of offers.quantity', () => {
  it('finds writes in the shapes the code uses (the check checks something)', () => {
    expect(
      stockWrites('await tx.update(offers).set({ quantity: next }).where(eq(offers.id, id));').quantity,
    ).toHaveLength(1);
    expect(
      stockWrites(
        'await db()\n  .update(offers)\n  .set(p ? { quantity: 0, preorder: true } : { quantity: 5 })\n  .where(x);',
      ).quantity,
    ).toHaveLength(1);
    expect(stockWrites('sql`update offers set quantity = quantity - ${n} where id = ${id}`').quantity).toHaveLength(1);
    expect(stockWrites('UPDATE "offers" SET "price_kopecks" = 1, "quantity" = 2').quantity).toHaveLength(1);
    expect(stockWrites('await tx.insert(stockMoves).values(rows);').moves).toHaveLength(1);
    expect(stockWrites('INSERT INTO "stock_moves" ("offer_id") VALUES (1)').moves).toHaveLength(1);
    // Not writes of the quantity: a price change, reading it, order lines' quantities.
    expect(stockWrites('await db.update(offers).set({ preorder: true }).where(eq(offers.id, 1));').quantity).toEqual(
      [],
    );
    expect(stockWrites('db.select({ q: offers.quantity }).from(offers)').quantity).toEqual([]);
    expect(stockWrites('tx.update(orderItems).set({ returnedQuantity: 1 }).where(x)').quantity).toEqual([]);
  });

  it('no file but models/stock.server.ts updates offers.quantity, and none but the ledger and the seed writes stock_moves', () => {
    const self = 'tests/unit/stock-writes.test.ts';
    const found: string[] = [];
    for (const file of sourceFiles()) {
      if (file === self) continue;
      const writes = stockWrites(fs.readFileSync(path.join(root, file), 'utf8'));
      if (!QUANTITY_WRITERS.has(file)) found.push(...writes.quantity.map((w) => `${file}: ${w}`));
      if (!MOVE_WRITERS.has(file)) found.push(...writes.moves.map((w) => `${file}: ${w}`));
    }
    expect(found).toEqual([]);
  });
});
