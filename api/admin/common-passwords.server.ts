import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The common passwords a new staff password may not be (ASVS 6.2.4): about 5 000 of at least 8
// characters, the most used first, from the password list of zxcvbn-ts (MIT, @zxcvbn-ts/language-common
// 4.1.3, ranked by frequency in leaked sets), lower-cased, with some Russian ones (keyboard rows,
// «пароль» typed in the Latin layout). Read once, on first use.

const FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'common-passwords.txt');
let list: Set<string> | null = null;

/** Whether `password` (compared lower-cased) is on the list. */
export function isCommonPassword(password: string): boolean {
  list ??= new Set(
    fs
      .readFileSync(FILE, 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean),
  );
  return list.has(password.toLowerCase());
}
