// The shop's one process: migrate, seed, then serve pages, API, media and assets.
import type { Socket } from 'node:net';
import path from 'node:path';
import { assertProductionReady, ConfigError, configWarnings, loadEnv } from './env.server';
import { loadPgliteModules, openDatabase } from '~/db/client.server';
import { hasStorefrontBuild, loadStorefrontBuild, STOREFRONT_BUILD } from './storefront-build';
import { DEMO_DATABASE_DIR } from './demo-database';
import { flushCompileCache } from './compile-cache';

async function main(): Promise<void> {
  // performance.now() counts from the process's start: the first mark is when the entry's own
  // modules (configuration, database client) had loaded, 'storefront' when the server's modules
  // and the storefront had, each later one when a start-up step ended (ms, in the ready line, with
  // the CPU time the process used, all threads: on a busy machine the two differ).
  const started = performance.now();
  const phases: Record<string, number> = { modules: Math.round(started) };
  const mark = (phase: string) => (phases[phase] = Math.round(performance.now()));
  let env;
  try {
    env = loadEnv();
    assertProductionReady(env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }

  if (!hasStorefrontBuild()) {
    console.error(`No storefront build found at ${STOREFRONT_BUILD}: run \`npm run build\` first (npm start does).`);
    process.exit(1);
  }
  // The server's own modules are imported here, not at the top, and only once PGlite's modules
  // are in: PGlite then reads its files and compiles its WebAssembly on other threads while this
  // one loads the server, instead of after it (a restart's two longest steps).
  if (!env.DATABASE_URL) await loadPgliteModules();
  const opening = openDatabase({
    databaseUrl: env.DATABASE_URL,
    pgliteDir: path.join(env.dataDir, 'pglite'),
    pgliteSharedBuffers: env.PGLITE_SHARED_BUFFERS,
    // A demo on a new embedded data directory starts from the database the build prepared.
    ...(env.SEED_ON_START ? { pgliteTemplateDir: path.resolve(DEMO_DATABASE_DIR) } : {}),
  });
  opening.catch(() => {}); // awaited below, where a failure is thrown
  const [{ buildServer }, { seedDatabase }, build] = await Promise.all([
    import('./app.server'),
    import('~/db/seed/seed.server'),
    loadStorefrontBuild(),
  ]);
  mark('storefront');
  const database = await opening;
  mark('database');
  await database.migrate();
  mark('migrate');
  const app = await buildServer({
    env,
    database,
    build,
    clientDir: path.resolve('build/client'),
    adminDir: path.resolve('build/admin'),
  });
  mark('app');
  for (const warning of configWarnings(env)) app.log.warn(warning);
  if (database.fromTemplate)
    app.log.info({ from: DEMO_DATABASE_DIR }, 'database created from the demo database of the build');
  if (env.SEED_ON_START) {
    const result = await seedDatabase(database.db, { log: (m) => app.log.info(m) });
    if (!result.skipped) app.log.info({ products: result.products }, 'database seeded');
  }
  mark('seed');

  // Every open connection and when it opened: after SIGTERM, to close the ones that never sent a
  // byte and to say which ones a shutdown is still waiting for.
  const connections = new Map<Socket, number>();
  app.server.on('connection', (socket: Socket) => {
    connections.set(socket, performance.now());
    socket.once('close', () => connections.delete(socket));
  });

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing requests in flight');
    // 'requests' until the last connection has ended, then the close hooks (jobs, database).
    let stage: 'requests' | 'close hooks' = 'requests';
    let cutRequests = false;
    app.server.once('close', () => (stage = 'close hooks'));
    const sweep = setInterval(() => {
      // A keep-alive socket whose last request finishes after SIGTERM must not hold close() open.
      app.server.closeIdleConnections();
      // Nor may a connection that has not sent a byte for half a second (a browser's or a
      // client pool's spare connection): Node counts it as busy until its headers time out (a
      // minute), and it has no request to finish. The benches' shutdown time-outs were these.
      const now = performance.now();
      for (const [socket, openedAt] of connections)
        if (socket.bytesRead === 0 && now - openedAt > SILENT_CONNECTION_MS && !socketResponse(socket))
          socket.destroy();
    }, 100);
    sweep.unref();
    const giveUp = () => {
      // What still holds the process (open sockets, timers, file handles) and at which stage, to
      // tell a client that keeps a connection from a close hook that does not finish.
      const holding: Record<string, number> = {};
      for (const kind of process.getActiveResourcesInfo()) holding[kind] = (holding[kind] ?? 0) + 1;
      app.log.error({ holding, stage }, 'shutdown timed out, exiting');
      process.exit(1);
    };
    const deadline = setTimeout(() => {
      if (stage === 'requests') {
        // Requests that could not finish in time (a client that stopped sending, a stuck
        // handler): say which, close their connections, and still close the jobs and the
        // database properly, which the process waits for at most as long again.
        app.log.error(
          { held: [...connections.keys()].map(describeConnection) },
          'shutdown: requests still open after SHUTDOWN_TIMEOUT_MS, closing their connections',
        );
        cutRequests = true;
        app.server.closeAllConnections();
        setTimeout(() => giveUp(), env.SHUTDOWN_TIMEOUT_MS).unref();
      } else {
        giveUp();
      }
    }, env.SHUTDOWN_TIMEOUT_MS);
    deadline.unref();
    app.close().then(
      () => {
        app.log.info({ cutRequests }, 'shut down');
        // Requests cut short are a failed shutdown for whoever watches the exit code.
        process.exit(cutRequests ? 1 : 0);
      },
      (err: unknown) => {
        app.log.error({ err }, 'error while closing');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  const address = await app.listen({ port: env.PORT, host: env.HOST });
  mark('listen');
  const cpu = process.cpuUsage();
  // The modules a start loads, compiled: kept for the next start now, not only at a clean exit
  // (Node 22 and later; server/compile-cache.ts).
  setImmediate(flushCompileCache);
  app.log.info(
    {
      address,
      database: database.kind,
      ms: Math.round(performance.now() - started),
      phases,
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    },
    'Vitrina is ready',
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

/** How long after SIGTERM a connection that has sent nothing is kept: a request may be on its way. */
const SILENT_CONNECTION_MS = 500;

type ResponseOnSocket = { req?: { method?: string; url?: string }; headersSent: boolean; writableFinished: boolean };

/**
 * The response a connection is answering, if any: Node keeps it as the socket's `_httpMessage`
 * (its own closeIdleConnections reads it the same way).
 */
function socketResponse(socket: Socket): ResponseOnSocket | undefined {
  return (socket as Socket & { _httpMessage?: ResponseOnSocket })._httpMessage;
}

/** What a connection that holds up a shutdown is doing: its client, and the request it is on, if any. */
function describeConnection(socket: Socket): Record<string, unknown> {
  const response = socketResponse(socket);
  return {
    client: `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? '?'}`,
    bytesRead: socket.bytesRead,
    bytesWritten: socket.bytesWritten,
    request: response
      ? {
          method: response.req?.method,
          url: response.req?.url,
          headersSent: response.headersSent,
          finished: response.writableFinished,
        }
      : null,
  };
}
