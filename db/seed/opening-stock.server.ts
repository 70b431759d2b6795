import type { Database } from '~/db/client.server';
import { stockMoves } from '~/db/schema';

// The seed's side of the stock ledger (models/stock.server.ts): an offer the seed creates opens
// its ledger with one 'seed' move of its whole quantity, so its quantity is the sum of its moves
// from the first moment. Only offers the seed really inserted (not ones already there) get one;
// migration 0020 opened the ledger of the offers a database had before it.

/** 1 000 moves a statement keeps the bind parameters far below PostgreSQL's 65 535. */
const BATCH = 1000;

export async function recordOpeningStock(
  db: Database,
  created: readonly { id: number; quantity: number }[],
): Promise<void> {
  const moves = created
    .filter((o) => o.quantity > 0)
    .sort((a, b) => a.id - b.id)
    .map((o) => ({
      offerId: o.id,
      delta: o.quantity,
      quantityAfter: o.quantity,
      reason: 'seed' as const,
      actorKind: 'system' as const,
    }));
  for (let i = 0; i < moves.length; i += BATCH) await db.insert(stockMoves).values(moves.slice(i, i + BATCH));
}
