// npm run stock -- <offer id> <quantity>      sets an offer's stock on the running shop (a count)
// npm run stock -- <offer id> +N | -N         adds to it or takes from it (a staff adjustment)
// npm run stock -- --verify                   checks the stock ledger: every offer's quantity is
//                                             the sum of its moves; exits 1 when one is not
//
// Goes through the running server to the staff-only API path (scripts/staff-client.ts says how
// it finds the shop and the staff token).
import type { StockChangeResponse } from '~/shared/contract';
import type { StockLedgerResponse } from '~/api/staff/routes.server';
import { postStaff, printWarnings } from './staff-client';

const USAGE = 'usage: npm run stock -- <offer id> <quantity | +N | -N>   or   npm run stock -- --verify';
const args = process.argv.slice(2);

if (args[0] === '--verify') {
  if (args.length !== 1) {
    console.error(USAGE);
    process.exit(2);
  }
  const { data, warnings } = await postStaff<StockLedgerResponse>('stock', 'stock', { action: 'verify' });
  if (data.balanced) {
    console.log(`stock ledger balanced: ${data.offers} offers, ${data.moves} moves`);
  } else {
    console.log(`stock ledger NOT balanced (${data.offers} offers, ${data.moves} moves):`);
    for (const m of data.mismatches) {
      const chain = m.broken_move_id === null ? '' : `; move ${m.broken_move_id} does not follow the one before it`;
      console.log(`  offer ${m.offer_id}: quantity ${m.quantity}, moves add up to ${m.moves_sum}${chain}`);
    }
    printWarnings({ warnings });
    process.exit(1);
  }
} else {
  const [offerArg, quantityArg] = args;
  if (
    args.length !== 2 ||
    !offerArg ||
    !quantityArg ||
    !/^\d{1,10}$/.test(offerArg) ||
    !/^[+-]?\d{1,7}$/.test(quantityArg)
  ) {
    console.error(USAGE);
    process.exit(2);
  }
  const relative = /^[+-]/.test(quantityArg);
  const body = new URLSearchParams({
    action: relative ? 'add' : 'set',
    offer_id: offerArg,
    quantity: String(Number(quantityArg)),
  });
  const answer = await postStaff<StockChangeResponse>('stock', 'stock', body);
  const { offer_id, previous, quantity, notified } = answer.data;
  console.log(`offer ${offer_id}: ${previous} → ${quantity}${notified ? `; waiting list notified: ${notified}` : ''}`);
}
