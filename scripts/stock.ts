// npm run stock -- <offer id> <quantity>      sets an offer's stock on the running shop
// npm run stock -- <offer id> +N | -N         adds to it or takes from it
//
// Goes through the running server to the staff-only API path (scripts/staff-client.ts says how
// it finds the shop and the staff token).
import type { StockChangeResponse } from '~/shared/contract';
import { postStaff } from './staff-client';

const [offerArg, quantityArg] = process.argv.slice(2);
if (!offerArg || !quantityArg || !/^\d{1,10}$/.test(offerArg) || !/^[+-]?\d{1,7}$/.test(quantityArg)) {
  console.error('usage: npm run stock -- <offer id> <quantity | +N | -N>');
  process.exit(2);
}
const relative = /^[+-]/.test(quantityArg);
const body = new URLSearchParams({ action: relative ? 'add' : 'set', offer_id: offerArg, quantity: String(Number(quantityArg)) });
const answer = await postStaff<StockChangeResponse>('stock', 'stock', body);
const { offer_id, previous, quantity, notified } = answer.data;
console.log(`offer ${offer_id}: ${previous} → ${quantity}${notified ? `; waiting list notified: ${notified}` : ''}`);
