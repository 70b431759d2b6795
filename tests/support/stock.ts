import { eq } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { offers } from '~/db/schema';
import { STAFF_TOKEN_ACTOR } from '~/core/stock-ledger';
import { moveStock, verifyStockLedger } from '~/models/stock.server';

// Tests give offers the stock they need through the stock ledger, as staff counting the shelf
// would (reason 'count'): a direct update of offers.quantity would leave the ledger unbalanced
// (tests/unit/stock-writes.test.ts keeps such updates out of the code, this keeps them out of
// the tests). Every test shop checks the ledger as it closes (tests/support/server.ts).

/** Sets an offer's stock (and, when given, whether it is open for pre-order) as a staff count. */
export async function setStock(
  db: Database,
  offerId: number,
  quantity: number,
  options: { preorder?: boolean } = {},
): Promise<void> {
  if (options.preorder !== undefined)
    await db.update(offers).set({ preorder: options.preorder }).where(eq(offers.id, offerId));
  await db.transaction(async (txn) => {
    const moved = await moveStock(txn as unknown as Database, {
      lines: [{ offerId, setTo: quantity }],
      reason: 'count',
      actor: STAFF_TOKEN_ACTOR,
      note: 'test fixture',
    });
    if (!moved.ok) throw new Error(`no offer ${offerId}`);
  });
}

/** Throws, naming the offers, when some offer's quantity is not the sum of its stock moves (or a move does not follow the one before it). */
export async function assertStockLedgerBalanced(db: Database, what = 'the stock ledger'): Promise<void> {
  const check = await verifyStockLedger({ db });
  if (check.mismatches.length > 0) {
    throw new Error(`${what} is not balanced: ${check.mismatches.map((m) => JSON.stringify(m)).join(', ')}`);
  }
}
