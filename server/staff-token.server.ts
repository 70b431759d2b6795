import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

// The staff secret: STAFF_TOKEN when set (production: the same value on every process);
// otherwise one made once for this DATA_DIR and kept there, where `npm run stock` finds it.
export const STAFF_TOKEN_FILE = 'staff-token';

export function resolveStaffToken({ STAFF_TOKEN, dataDir }: { STAFF_TOKEN?: string | undefined; dataDir: string }): string {
  if (STAFF_TOKEN) return STAFF_TOKEN;
  const file = path.join(dataDir, STAFF_TOKEN_FILE);
  try {
    const kept = fs.readFileSync(file, 'utf8').trim();
    if (kept.length >= 24) return kept;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const token = crypto.randomBytes(32).toString('base64url');
  try {
    // 'wx': two processes starting at once keep one token (the loser reads the winner's).
    fs.writeFileSync(file, `${token}\n`, { mode: 0o600, flag: 'wx' });
    return token;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return fs.readFileSync(file, 'utf8').trim();
    throw err;
  }
}
