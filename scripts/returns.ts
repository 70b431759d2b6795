// npm run return -- approve <request id> [--delivery] [--note <text>]
//     approves a return request: certificates and bonuses get their part back at once, the card or
//     the instalment service is refunded by a job; pay on receipt: prints the transfer to make.
//     --delivery refunds the delivery too (our error or a defect, content/pages/return.md).
// npm run return -- reject <request id> --note <text>
//     rejects it; the customer gets the note by SMS and e-mail and sees it in the account
// npm run return -- transferred <request id>
//     records that staff made the bank transfer of a pay-on-receipt return
//
// Like `npm run order`: goes through the running server to the staff-only API path
// (scripts/staff-client.ts says how it finds the shop and the staff token).
import { formatRub } from '~/core/money';
import type { StaffReturnResponse } from '~/api/staff/returns.routes.server';
import { postStaff, printWarnings } from './staff-client';

const USAGE = [
  'usage: npm run return -- approve <request id> [--delivery] [--note <text>]',
  '       npm run return -- reject <request id> --note <text>',
  '       npm run return -- transferred <request id>',
].join('\n');

function usage(problem?: string): never {
  if (problem) console.error(problem);
  console.error(USAGE);
  process.exit(2);
}

const [command, requestArg, ...options] = process.argv.slice(2);
if (
  !command ||
  !['approve', 'reject', 'transferred'].includes(command) ||
  !requestArg ||
  !/^\d{1,10}$/.test(requestArg)
)
  usage();

const body = new URLSearchParams({ action: command, request_id: requestArg });
for (let i = 0; i < options.length; i++) {
  const flag = options[i];
  if (flag === '--delivery' && command === 'approve') body.set('delivery', '1');
  else if (flag === '--note' && command !== 'transferred') {
    const value = options[++i];
    if (value === undefined) usage('--note: no value');
    body.set('note', value);
  } else usage(`unknown option ${flag}`);
}
if (command === 'reject' && !body.get('note')) usage('reject: say why with --note <text> (the customer sees it)');

const answer = await postStaff<StaffReturnResponse>('return', 'returns', body);
const d = answer.data;
const MEANS: Record<string, string> = {
  cloudpayments: 'card (CloudPayments)',
  dolyami: 'Dolyami',
  'yandex-split': 'Yandex Split',
  certificate: 'gift certificate',
  bonus: 'bonuses',
  transfer: 'bank transfer',
};
console.log(
  `return request ${d.request_id} (order ${d.order_id}): ${d.status}${d.delivery_refunded ? ', delivery refunded' : ''}`,
);
for (const r of d.refunds) {
  const state = r.status === 'pending' ? 'refund job queued' : r.status === 'manual' ? 'TO TRANSFER BY HAND' : 'done';
  console.log(`  ${MEANS[r.means] ?? r.means}: ${formatRub(r.amount_kopecks)} — ${state}`);
}
if (d.accrual_cancelled_kopecks > 0)
  console.log(`  accrued bonuses cancelled: ${formatRub(d.accrual_cancelled_kopecks)}`);
printWarnings(answer);
