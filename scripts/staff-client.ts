// The one way the staff scripts (`npm run order`, `stock`, `jobs`, `return`) reach the shop: through
// the running server (the embedded database belongs to that one process, and the handlers live
// there) to the staff-only API path, with STAFF_TOKEN or the token the shop keeps in
// DATA_DIR/staff-token. SHOP_URL (default http://127.0.0.1:$PORT) names the shop; API_BASE_URL,
// as for the shop itself, moves its API (a path under the shop, or a whole URL).
import fs from 'node:fs';
import path from 'node:path';
import { STAFF_TOKEN_FILE } from '~/server/secrets.server';

/** The envelope every staff path answers with. */
type StaffAnswer = { data: unknown; errors: Record<string, string>; warnings: string[] };

/** The staff token: STAFF_TOKEN, or the one the shop made in DATA_DIR; exits 2 when there is neither. */
function staffToken(): string {
  if (process.env.STAFF_TOKEN) return process.env.STAFF_TOKEN;
  const dataDir = path.resolve(process.env.DATA_DIR || 'data');
  try {
    return fs.readFileSync(path.join(dataDir, STAFF_TOKEN_FILE), 'utf8').trim();
  } catch {
    console.error(
      `No STAFF_TOKEN and no ${path.join(dataDir, STAFF_TOKEN_FILE)}: start the shop once, or set STAFF_TOKEN.`,
    );
    process.exit(2);
  }
}

/** Where the shop's API answers, with no trailing slash. */
function apiBase(): string {
  const shop = (process.env.SHOP_URL || `http://127.0.0.1:${process.env.PORT || 3000}`).replace(/\/+$/, '');
  return process.env.API_BASE_URL?.startsWith('http')
    ? process.env.API_BASE_URL
    : `${shop}${process.env.API_BASE_URL || '/backend'}`;
}

/**
 * POSTs `fields` as a form to the staff path `/staff/<route>/` and returns the answer when it has
 * data. Otherwise it reports and exits, as every staff script does: 1 when the shop does not
 * answer or answers with errors (each line prefixed with `script:`), 2 when there is no token.
 */
export async function postStaff<A extends StaffAnswer>(
  script: string,
  route: string,
  fields: URLSearchParams | Record<string, string>,
): Promise<A & { data: NonNullable<A['data']> }> {
  const token = staffToken();
  const base = apiBase();
  let res: Response;
  try {
    res = await fetch(`${base}/staff/${route}/`, {
      method: 'POST',
      // The audit log names the script (api/staff/script-audit.server.ts).
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/x-www-form-urlencoded',
        'x-vitrina-script': script,
      },
      body: new URLSearchParams(fields),
    });
  } catch (err) {
    console.error(`The shop does not answer at ${base}: is it running? (${(err as Error).message})`);
    process.exit(1);
  }
  // A refusal before the route (401, 404, a proxy's page) has no envelope, perhaps just `error`.
  const answer = (await res.json().catch(() => null)) as (Partial<A> & { error?: string }) | null;
  if (!res.ok || !answer?.data) {
    console.error(`${script}: ${res.status} ${answer?.error ?? Object.values(answer?.errors ?? {}).join('; ')}`);
    process.exit(1);
  }
  return answer as A & { data: NonNullable<A['data']> };
}

/** Prints the answer's warnings under what the script printed. */
export function printWarnings(answer: { warnings: string[] }): void {
  for (const w of answer.warnings) console.log(`  ${w}`);
}
