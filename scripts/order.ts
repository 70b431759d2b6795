// npm run order -- status <order id> <status> [--track <number>] [--note <text>]
//     moves an order along (awaiting_payment, new, confirmed, assembling, shipped, delivered,
//     received, cancelled; core/order-status.ts says which moves are allowed)
// npm run order -- fitting <order id> <offer id>:<kept>/<refused> ...
//     records the fitting at the door of a Moscow courier order: what was kept and handed back
//
// Like `npm run stock`: goes through the running server (the embedded database belongs to that
// one process) to the staff-only API path, with STAFF_TOKEN or the token the shop keeps in
// DATA_DIR/staff-token. SHOP_URL (default http://127.0.0.1:$PORT) names the shop.
import fs from 'node:fs';
import path from 'node:path';
import { STAFF_TOKEN_FILE } from '~/server/secrets.server';
import { formatRub } from '~/core/money';
import { ORDER_STATUSES } from '~/core/order-status';
import type { StaffFittingResponse, StaffOrderStatusResponse } from '~/api/staff/routes.server';

const USAGE = [
  'usage: npm run order -- status <order id> <status> [--track <number>] [--note <text>]',
  '       npm run order -- fitting <order id> <offer id>:<kept>/<refused> ...',
  `statuses: ${ORDER_STATUSES.join(', ')}`,
].join('\n');

function usage(problem?: string): never {
  if (problem) console.error(problem);
  console.error(USAGE);
  process.exit(2);
}

const [command, orderArg, ...rest] = process.argv.slice(2);
if (!orderArg || !/^\d{1,10}$/.test(orderArg)) usage();

const body = new URLSearchParams({ order_id: orderArg });
if (command === 'status') {
  const [status, ...options] = rest;
  if (!status) usage();
  body.set('action', 'status');
  body.set('status', status);
  for (let i = 0; i < options.length; i += 2) {
    const [flag, value] = [options[i], options[i + 1]];
    if (value === undefined) usage(`${flag}: no value`);
    if (flag === '--track') body.set('track_number', value);
    else if (flag === '--note') body.set('note', value);
    else usage(`unknown option ${flag}`);
  }
} else if (command === 'fitting') {
  if (rest.length === 0) usage('fitting: give every line as <offer id>:<kept>/<refused>');
  body.set('action', 'fitting');
  for (const line of rest) {
    const m = /^(\d{1,10}):(\d{1,4})\/(\d{1,4})$/.exec(line);
    if (!m) usage(`not <offer id>:<kept>/<refused>: ${line}`);
    body.set(`lines[${m[1]}][kept]`, String(Number(m[2])));
    body.set(`lines[${m[1]}][refused]`, String(Number(m[3])));
  }
} else {
  usage();
}

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
let res: Response;
try {
  res = await fetch(`${apiBase}/staff/orders/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
} catch (err) {
  console.error(`The shop does not answer at ${apiBase}: is it running? (${(err as Error).message})`);
  process.exit(1);
}
type Answer = (StaffOrderStatusResponse | StaffFittingResponse) & { error?: string };
const answer = (await res.json().catch(() => null)) as Answer | null;
if (!res.ok || !answer?.data) {
  console.error(`order: ${res.status} ${answer?.error ?? Object.values(answer?.errors ?? {}).join('; ')}`);
  process.exit(1);
}
if (command === 'status') {
  const d = (answer as StaffOrderStatusResponse).data as NonNullable<StaffOrderStatusResponse['data']>;
  console.log(`order ${d.order_id}: ${d.previous_status} → ${d.status} (${d.status_label})${d.track_number ? `, track ${d.track_number}` : ''}`);
  for (const s of d.stock_returned) console.log(`  offer ${s.offer_id}: stock ${s.previous} → ${s.quantity}`);
} else {
  const d = (answer as StaffFittingResponse).data as NonNullable<StaffFittingResponse['data']>;
  console.log(
    `order ${d.order_id}: received; kept ${d.kept}, refused ${d.refused}; paid ${formatRub(d.paid_kopecks)} (delivery ${formatRub(d.delivery_kopecks)})`,
  );
  for (const l of d.lines)
    console.log(`  offer ${l.offer_id}${l.gift ? ' (gift cover)' : ''}: kept ${l.kept}, refused ${l.refused}, ${formatRub(l.paid_kopecks)}`);
  for (const s of d.stock_returned) console.log(`  offer ${s.offer_id}: stock ${s.previous} → ${s.quantity}`);
}
for (const w of answer.warnings) console.log(`  ${w}`);
