// npm run order -- status <order id> <status> [--track <number>] [--note <text>]
//     moves an order along (awaiting_payment, new, confirmed, assembling, shipped, delivered,
//     received, cancelled; core/order-status.ts says which moves are allowed)
// npm run order -- fitting <order id> <offer id>:<kept>/<refused> ...
//     records the fitting at the door of a Moscow courier order: what was kept and handed back
//
// Like `npm run stock`: goes through the running server to the staff-only API path
// (scripts/staff-client.ts says how it finds the shop and the staff token).
import { formatRub } from '~/core/money';
import { ORDER_STATUSES } from '~/core/order-status';
import type { StaffFittingResponse, StaffOrderStatusResponse } from '~/api/staff/routes.server';
import { postStaff, printWarnings } from './staff-client';

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

const answer = await postStaff<StaffOrderStatusResponse | StaffFittingResponse>('order', 'orders', body);
if (command === 'status') {
  const d = answer.data as NonNullable<StaffOrderStatusResponse['data']>;
  console.log(
    `order ${d.order_id}: ${d.previous_status} → ${d.status} (${d.status_label})${d.track_number ? `, track ${d.track_number}` : ''}`,
  );
  for (const s of d.stock_returned) console.log(`  offer ${s.offer_id}: stock ${s.previous} → ${s.quantity}`);
} else {
  const d = answer.data as NonNullable<StaffFittingResponse['data']>;
  console.log(
    `order ${d.order_id}: received; kept ${d.kept}, refused ${d.refused}; paid ${formatRub(d.paid_kopecks)} (delivery ${formatRub(d.delivery_kopecks)})`,
  );
  for (const l of d.lines)
    console.log(
      `  offer ${l.offer_id}${l.gift ? ' (gift cover)' : ''}: kept ${l.kept}, refused ${l.refused}, ${formatRub(l.paid_kopecks)}`,
    );
  for (const s of d.stock_returned) console.log(`  offer ${s.offer_id}: stock ${s.previous} → ${s.quantity}`);
}
printWarnings(answer);
