import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveKeptSecret } from './secrets.server';

// A secret made for a DATA_DIR on first use (AUTH_SECRET, the staff token): processes starting at
// once must all end up with the one secret kept, never an empty or partial one (two shop processes
// on one DATA_DIR once signed with different secrets: tests/api/exchange-1c-two.test.ts).

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-secrets-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/**
 * Runs `resolveKeptSecret` in `n` processes at once: each loads, then waits for a "go" file and
 * answers with the secret it got.
 */
async function raced(dataDir: string, n: number): Promise<string[]> {
  const go = `${dataDir}.go`;
  const module = new URL('./secrets.server.ts', import.meta.url).href;
  const script = `
    import fs from 'node:fs';
    import { resolveKeptSecret } from ${JSON.stringify(module)};
    while (!fs.existsSync(${JSON.stringify(go)})) await new Promise((r) => setTimeout(r, 1));
    process.stdout.write(resolveKeptSecret({ dataDir: ${JSON.stringify(dataDir)}, file: 'auth-secret' }));`;
  const children = Array.from({ length: n }, () =>
    spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  const answers = children.map(
    (child) =>
      new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}`))));
      }),
  );
  await new Promise((r) => setTimeout(r, 1500)); // every process loaded and waiting
  fs.writeFileSync(go, '');
  return Promise.all(answers);
}

describe('resolveKeptSecret', () => {
  it('the environment value wins; otherwise one secret is made and kept', () => {
    const dir = path.join(root, 'one');
    expect(resolveKeptSecret({ value: 'from-the-environment', dataDir: dir, file: 'auth-secret' })).toBe(
      'from-the-environment',
    );
    const made = resolveKeptSecret({ dataDir: dir, file: 'auth-secret' });
    expect(made.length).toBeGreaterThanOrEqual(24);
    expect(resolveKeptSecret({ dataDir: dir, file: 'auth-secret' })).toBe(made);
    expect(fs.statSync(path.join(dir, 'auth-secret')).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(dir)).toEqual(['auth-secret']);
  });

  it('processes starting at once all get the one kept secret, never an empty one', { timeout: 60_000 }, async () => {
    for (let round = 0; round < 3; round++) {
      const dir = path.join(root, `race-${round}`);
      const got = await raced(dir, 6);
      const kept = fs.readFileSync(path.join(dir, 'auth-secret'), 'utf8').trim();
      expect(kept.length).toBeGreaterThanOrEqual(24);
      expect(new Set(got)).toEqual(new Set([kept]));
      expect(fs.readdirSync(dir)).toEqual(['auth-secret']);
    }
  });
});
