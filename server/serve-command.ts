import fs from 'node:fs';
import path from 'node:path';

/**
 * The arguments after `node` in a checkout's `npm run serve` script: how the server process is
 * started (its V8 flags and the module hooks before `server/main.ts`). The benches and the
 * lifecycle test start it the same way, so what they measure is what `npm start` runs; a bench
 * of an older checkout (BENCH_APP_DIR) starts that checkout as it started itself.
 */
export function serveNodeArgs(appDir = '.'): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(appDir, 'package.json'), 'utf8')) as {
    scripts?: Record<string, string>;
  };
  const script = pkg.scripts?.serve ?? '';
  const [command, ...args] = script.trim().split(/\s+/);
  if (command !== 'node' || !args.includes('server/main.ts')) {
    throw new Error(
      `${appDir}/package.json: the serve script is not "node … server/main.ts": ${JSON.stringify(script)}`,
    );
  }
  return args;
}
