import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = path.dirname(fileURLToPath(import.meta.url));

// Three suites: fast unit tests next to the code, API tests over HTTP against a real
// server process, and browser tests in Debian's Chromium against the built shop.
export default defineConfig({
  resolve: { alias: [{ find: /^~\//, replacement: `${root}/` }] },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            '{core,shared,models,media,app,admin,server,api,db,integrations,content,scripts,bench}/**/*.test.{ts,tsx}',
            'tests/unit/**/*.test.ts',
          ],
          environment: 'node',
          maxWorkers: 2,
        },
      },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          globalSetup: ['tests/support/seeded-template.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Each file has its own shop and database copy, so files run side by side: three on two
          // cores, since a file waits on its database part of the time (measured on this 2-core
          // machine: PGlite 91 → 82 s, PostgreSQL 70 → 58 s; four were no faster).
          fileParallelism: true,
          maxWorkers: 3,
          // Files in one worker share its loaded modules (each still has its own shop and
          // database): loading the server's modules again for each of 47 files was about 40 %
          // of the suite's CPU. Module-level caches are keyed by database (WeakMap) or by what
          // they answer, and no test changes process.env or globals.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          // The seeded database and one Chromium for the run (each file connects to it).
          globalSetup: ['tests/support/seeded-template.ts', 'tests/support/browser-server.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 180_000,
          // Each file has its own shop, database copy and browser contexts: two files at once keep
          // both cores busy (one file alone waits on its browser about a third of the time).
          fileParallelism: true,
          maxWorkers: 2,
          // As in the API suite, files in one worker share its loaded modules (the server's, the
          // built storefront's, PGlite's compiled WebAssembly); each still has its own shop. The
          // one process-wide cache the storefront adds, kept markup, is keyed by all it depends on.
          isolate: false,
          // The built storefront is plain Node ESM: loaded by Node, not rewritten by Vite's module
          // runner (its SSR transform of the whole bundle, and slower calls between its modules).
          server: { deps: { external: [/^(?!.*\/node_modules\/).*\/build\/server\//] } },
        },
      },
    ],
  },
});
