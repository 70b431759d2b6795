// npm run stock -- <offer id> <quantity>      sets an offer's stock on the running shop
// npm run stock -- <offer id> +N | -N         adds to it or takes from it
//
// Goes through the running server (the embedded database belongs to that one process), to the
// staff-only API path, with STAFF_TOKEN or the token the shop keeps in DATA_DIR/staff-token.
// SHOP_URL (default http://127.0.0.1:$PORT) names the shop.
import fs from 'node:fs';
import path from 'node:path';
import { STAFF_TOKEN_FILE } from '~/server/secrets.server';
import type { StockChangeResponse } from '~/shared/contract';

const [offerArg, quantityArg] = process.argv.slice(2);
if (!offerArg || !quantityArg || !/^\d{1,10}$/.test(offerArg) || !/^[+-]?\d{1,7}$/.test(quantityArg)) {
  console.error('usage: npm run stock -- <offer id> <quantity | +N | -N>');
  process.exit(2);
}
const relative = /^[+-]/.test(quantityArg);
const dataDir = path.resolve(process.env.DATA_DIR || 'data');
let token = process.env.STAFF_TOKEN;
if (!token) {
  try {
    token = fs.readFileSync(path.join(dataDir, STAFF_TOKEN_FILE), 'utf8').trim();
  } catch {
    console.error(`No STAFF_TOKEN and no ${path.join(dataDir, STAFF_TOKEN_FILE)}: start the shop once, or set STAFF_TOKEN.`);
    process.exit(2);
  }
}
const shop = (process.env.SHOP_URL || `http://127.0.0.1:${process.env.PORT || 3000}`).replace(/\/+$/, '');
const apiBase = process.env.API_BASE_URL?.startsWith('http') ? process.env.API_BASE_URL : `${shop}${process.env.API_BASE_URL || '/backend'}`;
const body = new URLSearchParams({ action: relative ? 'add' : 'set', offer_id: offerArg, quantity: String(Number(quantityArg)) });
let res: Response;
try {
  res = await fetch(`${apiBase}/staff/stock/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
} catch (err) {
  console.error(`The shop does not answer at ${apiBase}: is it running? (${(err as Error).message})`);
  process.exit(1);
}
const answer = (await res.json().catch(() => null)) as (StockChangeResponse & { error?: string }) | null;
if (!res.ok || !answer?.data) {
  console.error(`stock: ${res.status} ${answer?.error ?? Object.values(answer?.errors ?? {}).join('; ')}`);
  process.exit(1);
}
const { offer_id, previous, quantity, notified } = answer.data;
console.log(`offer ${offer_id}: ${previous} → ${quantity}${notified ? `; waiting list notified: ${notified}` : ''}`);
