import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serveEntryPoint, serveNodeArgs } from './serve-command';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function checkout(serve: string | undefined): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-serve-'));
  dirs.push(dir);
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ scripts: serve === undefined ? {} : { serve } }));
  return dir;
}

describe('serveNodeArgs', () => {
  it("gives this checkout's serve script after `node`: the young generation flag and the built server, no tsx", () => {
    const args = serveNodeArgs();
    expect(args[0]).toBe('--max-semi-space-size=64');
    expect(args.slice(-1)).toEqual(['build/node/main.js']);
    expect(args.join(' ')).not.toMatch(/tsx|--import/);
    expect(serveEntryPoint()).toBe(path.join('.', 'build/node/main.js'));
  });

  it("reads another checkout's script as it is (an older one ran the TypeScript under tsx)", () => {
    const dir = checkout('node  --import tsx --import ./server/production-env.ts server/main.ts');
    expect(serveNodeArgs(dir)).toEqual(['--import', 'tsx', '--import', './server/production-env.ts', 'server/main.ts']);
    expect(serveEntryPoint(dir)).toBe(path.join(dir, 'server/main.ts'));
  });

  it('refuses a serve script that does not run the server with node', () => {
    expect(() => serveNodeArgs(checkout('tsx server/main.ts'))).toThrow(/not "node … build\/node\/main.js"/);
    expect(() => serveNodeArgs(checkout('node server/other.ts'))).toThrow(/serve script/);
    expect(() => serveNodeArgs(checkout('node build/node/main.js --inspect'))).toThrow(/serve script/);
    expect(() => serveNodeArgs(checkout(undefined))).toThrow(/serve script/);
  });
});
