// npm run staff -- create --email anna@vitrina.example --role admin [--name "Анна Петрова"]
// npm run staff -- reset-totp --email anna@vitrina.example     a lost authenticator: a new link
// npm run staff -- disable --email anna@vitrina.example        ends the account's sessions too
//
// Staff accounts of the back office (/admin), on the running shop (docs/back-office.md). There is
// no default account: the first admin is made here. `create` and `reset-totp` print a one-time
// link (24 hours): it sets the password and enrols an authenticator app (the page shows the QR
// code, the otpauth:// URI and the key to type). Goes through the running server to the
// staff-only API path with STAFF_TOKEN (scripts/staff-client.ts says how it finds both).
import { pathToFileURL } from 'node:url';
import type { ScriptStaffResponse } from '~/shared/admin-contract';
import { postStaff, printWarnings } from './staff-client';

export type StaffAction = 'create' | 'reset-totp' | 'disable';

/**
 * One call of the staff path `/staff/accounts/` on the shop at `apiBase` (…/backend) with the staff
 * token: the account and, for create and reset-totp, its one-time link. Throws on a refusal
 * (tests call this; the command line below reports and exits instead).
 */
export async function staffAccount({
  apiBase,
  token,
  action,
  email,
  role,
  name,
}: {
  apiBase: string;
  token: string;
  action: StaffAction;
  email: string;
  role?: string;
  name?: string;
}): Promise<NonNullable<ScriptStaffResponse['data']>> {
  const fields = new URLSearchParams({ action, email, ...(role ? { role } : {}), ...(name ? { name } : {}) });
  const res = await fetch(`${apiBase}/staff/accounts/`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/x-www-form-urlencoded',
      'x-vitrina-script': 'staff',
    },
    body: fields,
  });
  const answer = (await res.json()) as Partial<ScriptStaffResponse> & { error?: string };
  if (!res.ok || !answer.data)
    throw new Error(`staff ${action}: ${res.status} ${answer.error ?? Object.values(answer.errors ?? {}).join('; ')}`);
  return answer.data;
}

const USAGE = `usage:
  npm run staff -- create --email <e-mail> --role admin|manager|warehouse|content [--name "<name>"]
  npm run staff -- reset-totp --email <e-mail>
  npm run staff -- disable --email <e-mail>`;

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  if (i !== -1) return args[i + 1];
  const inline = args.find((a) => a.startsWith(`--${name}=`));
  return inline?.slice(name.length + 3);
}

async function main(args: string[]): Promise<void> {
  const [action] = args;
  const email = option(args, 'email');
  const role = option(args, 'role');
  const name = option(args, 'name');
  if (
    (action !== 'create' && action !== 'reset-totp' && action !== 'disable') ||
    !email ||
    (action === 'create' && !role)
  ) {
    console.error(USAGE);
    process.exit(2);
  }
  const fields: Record<string, string> = { action, email, ...(role ? { role } : {}), ...(name ? { name } : {}) };
  const answer = await postStaff<ScriptStaffResponse>('staff', 'accounts', fields);
  const { data } = answer;
  if (action === 'disable') {
    console.log(`${data.email}: disabled; sessions ended: ${data.sessions_ended}`);
  } else {
    console.log(
      `${data.email} (${data.role}): ${action === 'create' ? 'account created' : `authenticator removed; sessions ended: ${data.sessions_ended}`}`,
    );
    console.log('');
    console.log(
      'One-time link (hand it to its owner; good until ' +
        new Date(data.setup_expires_at ?? '').toLocaleString('ru-RU', { timeZone: 'Europe/Moscow' }) +
        ' MSK):',
    );
    console.log(`  ${data.setup_url}`);
    console.log('');
    console.log(
      action === 'create'
        ? 'It sets the password and shows the QR code, otpauth:// URI and key for an authenticator app; then log in at /admin.'
        : 'It asks the current password and shows the QR code, otpauth:// URI and key of a new authenticator; then log in at /admin.',
    );
  }
  printWarnings(answer);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main(process.argv.slice(2));
