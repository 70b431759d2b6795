import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

// Secrets a process needs that the embedded default makes for itself: the environment's value
// when set (production: the same value on every process); otherwise one made once for this
// DATA_DIR and kept there (0600), where scripts such as `npm run stock` find it.
export const STAFF_TOKEN_FILE = 'staff-token';
export const AUTH_SECRET_FILE = 'auth-secret';

/** The environment's value, or the one kept in `dataDir/file`, made on first use. */
export function resolveKeptSecret({
  value,
  dataDir,
  file,
}: {
  value?: string | undefined;
  dataDir: string;
  file: string;
}): string {
  if (value) return value;
  const where = path.join(dataDir, file);
  try {
    const kept = fs.readFileSync(where, 'utf8').trim();
    if (kept.length >= 24) return kept;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const secret = crypto.randomBytes(32).toString('base64url');
  // Written whole under a name of its own, then linked into place: the link fails if the file is
  // there, so two processes starting at once keep one secret (the loser reads the winner's), and
  // the file never exists empty. (Created in place with 'wx', the loser could read it between its
  // creation and its write, and sign with an empty secret: a session one process made was then
  // refused by the other, «Войдите снова».)
  const draft = `${where}.${process.pid}.${crypto.randomBytes(6).toString('hex')}`;
  fs.writeFileSync(draft, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  try {
    fs.linkSync(draft, where);
    return secret;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return fs.readFileSync(where, 'utf8').trim();
    throw err;
  } finally {
    fs.rmSync(draft, { force: true });
  }
}

/** The staff secret of the staff-only API paths. */
export function resolveStaffToken({
  STAFF_TOKEN,
  dataDir,
}: {
  STAFF_TOKEN?: string | undefined;
  dataDir: string;
}): string {
  return resolveKeptSecret({ value: STAFF_TOKEN, dataDir, file: STAFF_TOKEN_FILE });
}

/** The key that signs session tokens and hashes login codes. */
export function resolveAuthSecret({
  AUTH_SECRET,
  dataDir,
}: {
  AUTH_SECRET?: string | undefined;
  dataDir: string;
}): string {
  return resolveKeptSecret({ value: AUTH_SECRET, dataDir, file: AUTH_SECRET_FILE });
}
