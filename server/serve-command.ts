import fs from 'node:fs';
import path from 'node:path';

/** The entry point `npm run serve` runs: the built server; older checkouts ran the TypeScript under tsx. */
const ENTRY_POINTS = ['build/node/main.js', 'server/main.ts'];

/**
 * The arguments after `node` in a checkout's `npm run serve` script: how the server process is
 * started (its V8 flags, any module hooks, the entry point). The benches and the lifecycle test
 * start it the same way, so what they measure is what `npm start` runs; a bench of an older
 * checkout (BENCH_APP_DIR) starts that checkout as it started itself (`--import tsx … server/main.ts`).
 */
export function serveNodeArgs(appDir = '.'): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(appDir, 'package.json'), 'utf8')) as {
    scripts?: Record<string, string>;
  };
  const script = pkg.scripts?.serve ?? '';
  const [command, ...args] = script.trim().split(/\s+/);
  if (command !== 'node' || !ENTRY_POINTS.includes(args.at(-1) ?? '')) {
    throw new Error(
      `${appDir}/package.json: the serve script is not "node … ${ENTRY_POINTS.join('" or "… ')}": ${JSON.stringify(script)}`,
    );
  }
  return args;
}

/** The file the serve script runs, in `appDir`: a bench checks it is there (`npm run build` makes the built one). */
export function serveEntryPoint(appDir = '.'): string {
  return path.join(appDir, serveNodeArgs(appDir).at(-1) ?? '');
}
