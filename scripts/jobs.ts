// npm run jobs -- run [kind]
//     runs the time-based steps now: every periodic job (loyalty.daily: birthday bonuses and
//     expiry; maintenance.prune) and, with a kind, that kind's waiting jobs (e.g. bonus.accrue,
//     due 14 days after an order is received) are made due, then the job runner runs once
//
// Like `npm run order`: goes through the running server (the handlers live there) to the
// staff-only API path (scripts/staff-client.ts says how it finds the shop and the staff token).
import type { StaffJobsResponse } from '~/api/staff/routes.server';
import { postStaff, printWarnings } from './staff-client';

const USAGE =
  'usage: npm run jobs -- run [kind]   (kinds: bonus.accrue, loyalty.daily, maintenance.prune, order.release, …)';

const [command, kind, ...rest] = process.argv.slice(2);
if (command !== 'run' || rest.length > 0) {
  console.error(USAGE);
  process.exit(2);
}

const body = new URLSearchParams({ action: 'run', ...(kind ? { kind } : {}) });
const answer = await postStaff<StaffJobsResponse>('jobs', 'jobs', body);
const d = answer.data;
console.log(`made due: ${d.made_due} (${d.kinds.join(', ')}); ran: ${d.ran}`);
printWarnings(answer);
