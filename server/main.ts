// The shop's one process: migrate, seed, then serve pages, API, media and assets.
import path from 'node:path';
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { ServerBuild } from 'react-router';
import { ConfigError, loadEnv } from './env.server';
import { openDatabase } from '~/db/client.server';
import { seedDatabase } from '~/db/seed/seed.server';
import { buildServer } from './app.server';
import { plainBufferGlobal } from './plain-globals';

async function main(): Promise<void> {
  const started = performance.now();
  plainBufferGlobal();
  let env;
  try {
    env = loadEnv();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }

  const buildFile = path.resolve('build/server/index.js');
  if (!fs.existsSync(buildFile)) {
    console.error('No storefront build found at build/server/index.js: run `npm run build` first (npm start does).');
    process.exit(1);
  }
  const build = (await import(pathToFileURL(buildFile).href)) as ServerBuild;

  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, pgliteDir: path.join(env.dataDir, 'pglite') });
  await database.migrate();
  const app = await buildServer({ env, database, build, clientDir: path.resolve('build/client') });
  if (env.SEED_ON_START) {
    const result = await seedDatabase(database.db, { log: (m) => app.log.info(m) });
    if (!result.skipped) app.log.info({ products: result.products }, 'database seeded');
  }

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing requests in flight');
    // 'requests' until the last connection has ended, then the close hooks (jobs, database).
    let stage: 'requests' | 'close hooks' = 'requests';
    app.server.once('close', () => (stage = 'close hooks'));
    const force = setTimeout(() => {
      // What still holds the process (open sockets, timers, file handles) and at which stage, to
      // tell a client that keeps a connection from a close hook that does not finish.
      const holding: Record<string, number> = {};
      for (const kind of process.getActiveResourcesInfo()) holding[kind] = (holding[kind] ?? 0) + 1;
      app.log.error({ holding, stage }, 'shutdown timed out, exiting');
      process.exit(1);
    }, env.SHUTDOWN_TIMEOUT_MS);
    force.unref();
    // A keep-alive socket whose last request finishes after SIGTERM must not hold close() open.
    const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
    sweep.unref();
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'error while closing');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  const address = await app.listen({ port: env.PORT, host: env.HOST });
  app.log.info({ address, database: database.kind, ms: Math.round(performance.now() - started) }, 'Vitrina is ready');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
