// npm run jobs -- run [kind]
//     runs the time-based steps now: every periodic job (loyalty.daily: birthday bonuses and
//     expiry; maintenance.prune) and, with a kind, that kind's waiting jobs (e.g. bonus.accrue,
//     due 14 days after an order is received) are made due, then the job runner runs once
//
// Like `npm run order`: goes through the running server (the embedded database belongs to that
// one process, and the handlers live there) to the staff-only API path, with STAFF_TOKEN or the
// token the shop keeps in DATA_DIR/staff-token. SHOP_URL (default http://127.0.0.1:$PORT) names the shop.
import fs from 'node:fs';
import path from 'node:path';
import { STAFF_TOKEN_FILE } from '~/server/secrets.server';
import type { StaffJobsResponse } from '~/api/staff/routes.server';

const USAGE = 'usage: npm run jobs -- run [kind]   (kinds: bonus.accrue, loyalty.daily, maintenance.prune, order.release, …)';

const [command, kind, ...rest] = process.argv.slice(2);
if (command !== 'run' || rest.length > 0) {
  console.error(USAGE);
  process.exit(2);
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
const body = new URLSearchParams({ action: 'run', ...(kind ? { kind } : {}) });
let res: Response;
try {
  res = await fetch(`${apiBase}/staff/jobs/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
} catch (err) {
  console.error(`The shop does not answer at ${apiBase}: is it running? (${(err as Error).message})`);
  process.exit(1);
}
const answer = (await res.json().catch(() => null)) as (StaffJobsResponse & { error?: string }) | null;
if (!res.ok || !answer?.data) {
  console.error(`jobs: ${res.status} ${answer?.error ?? Object.values(answer?.errors ?? {}).join('; ')}`);
  process.exit(1);
}
const d = answer.data;
console.log(`made due: ${d.made_due} (${d.kinds.join(', ')}); ran: ${d.ran}`);
for (const w of answer.warnings) console.log(`  ${w}`);
