// Builds what the server runs: the server and the scripts production runs as plain JavaScript in
// build/node/, and the embedded demo database in build/pglite-demo/ (server/demo-database.ts).
//
// The server and the scripts production runs are bundled into build/node/, so that
// `npm run serve` is `node` on the output: nothing is compiled at start (under tsx a restart spent
// seconds compiling TypeScript before its first log line) and no module hooks run. The last step
// of `npm run build`, after React Router's build of the storefront, which it bundles.
//   node --import tsx scripts/build-server.ts
//
// - The project's code and its packages are bundled (a few files to load instead of some 700),
//   except those that must stay in node_modules (EXTERNAL), which Node loads as before.
// - React Router's package maps every condition to its development build: its production build
//   is bundled, with the storefront's server build (server/storefront-build.ts becomes a static
//   import of build/server/index.js), so the process has one copy of it. Under tsx,
//   server/production-env.ts's resolve hook (server/production-hooks.mjs) does the same.
// - `main` and `seed` start as `--import ./server/production-env.ts` did: NODE_ENV is
//   `production` unless set, before React (which reads it when loaded) is imported.
// - Files found next to a source file (db/migrations, content/, the common-passwords list) are
//   found there still: in a bundled module, `import.meta.url` is its source file's address, as
//   seen from build/node/ (the build lives in the checkout, beside the sources). An entry point
//   keeps its own address, so "am I the script being run" checks work.
import fs from 'node:fs';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import { openDatabase } from '~/db/client.server';
import { seedDatabase } from '~/db/seed/seed.server';
import { DEMO_DATABASE_DIR } from '~/server/demo-database';

export const SERVER_OUT_DIR = 'build/node';

/** Packages loaded from node_modules at run time, not bundled. */
const EXTERNAL = [
  // Native modules.
  'sharp',
  '@node-rs/argon2',
  // PGlite finds its wasm, data and extension files next to its own code.
  '@electric-sql/pglite',
  '@electric-sql/pglite/*',
  // node-postgres, with the optional native binding it looks for.
  'pg',
  'pg-native',
  // One React for the storefront and react-dom, its production or development build chosen by
  // NODE_ENV when it loads.
  'react',
  'react/*',
  'react-dom',
  'react-dom/*',
  // The pickup map's library: imported by the storefront's browser-only code.
  'leaflet',
];

// CommonJS packages in an ES module: their `require` of Node's modules (and of anything left to
// node_modules) needs a real one in each output file.
const BANNER = `import { createRequire as __vitrinaCreateRequire } from 'node:module';
const require = __vitrinaCreateRequire(import.meta.url);`;

/** build/node/<name>.js → its source, and whether NODE_ENV defaults to production (the server, the seed). */
export const SERVER_ENTRIES: Record<string, { source: string; production: boolean }> = {
  main: { source: 'server/main.ts', production: true },
  seed: { source: 'scripts/seed.ts', production: true },
  stock: { source: 'scripts/stock.ts', production: false },
  order: { source: 'scripts/order.ts', production: false },
  returns: { source: 'scripts/returns.ts', production: false },
  jobs: { source: 'scripts/jobs.ts', production: false },
  staff: { source: 'scripts/staff.ts', production: false },
};

const PRODUCTION_ENTRY = /^vitrina-production-entry:/;

/** Where the built entry points keep V8's compile cache (server/compile-cache.ts), in build/node/. */
export const COMPILE_CACHE_DIR = 'compile-cache';

/**
 * An entry that sets NODE_ENV before anything else is loaded: static imports run before a
 * module's own code, so the real entry is imported after the assignment (it becomes a chunk).
 * Before it, the entry turns V8's compile cache on (Node 22.1 and later; server/compile-cache.ts),
 * so that every module of the server is compiled from the cache at the next start.
 */
function productionEntries(root: string): Plugin {
  return {
    name: 'production-entries',
    setup(b) {
      b.onResolve({ filter: PRODUCTION_ENTRY }, (args) => ({ path: args.path, namespace: 'production-entry' }));
      b.onLoad({ filter: /.*/, namespace: 'production-entry' }, (args) => {
        const source = path.join(root, args.path.replace(PRODUCTION_ENTRY, ''));
        const compileCache = path.join(root, 'server/compile-cache.ts');
        return {
          contents: [
            `import { enableCompileCache } from ${JSON.stringify(compileCache)};`,
            `enableCompileCache(new URL(${JSON.stringify(`${COMPILE_CACHE_DIR}/`)}, import.meta.url));`,
            `process.env.NODE_ENV ??= 'production';`,
            `await import(${JSON.stringify(source)});`,
            '',
          ].join('\n'),
          loader: 'js',
          resolveDir: root,
        };
      });
    },
  };
}

/** React Router's production build, bundled (see above). */
function productionReactRouter(root: string): Plugin {
  const dist = path.join(root, 'node_modules/react-router/dist/production');
  const files: Record<string, string> = {
    'react-router': path.join(dist, 'index.mjs'),
    'react-router/dom': path.join(dist, 'dom-export.mjs'),
  };
  return {
    name: 'production-react-router',
    setup(b) {
      b.onResolve({ filter: /^react-router(\/dom)?$/ }, (args) => {
        const file = files[args.path];
        if (!file || !fs.existsSync(file)) throw new Error(`React Router's production build not found: ${file}`);
        return { path: file };
      });
    },
  };
}

/** The storefront bundled: server/storefront-build.ts as a static import of React Router's server build. */
function bundledStorefront(root: string): Plugin {
  const module = path.join(root, 'server/storefront-build.ts');
  return {
    name: 'bundled-storefront',
    setup(b) {
      b.onLoad({ filter: /storefront-build\.ts$/ }, (args) => {
        if (args.path !== module) return undefined;
        return {
          contents: [
            `export const STOREFRONT_BUILD = 'build/server/index.js';`,
            `export const hasStorefrontBuild = () => true;`,
            `export const loadStorefrontBuild = () => import('../build/server/index.js');`,
          ].join('\n'),
          loader: 'js',
          resolveDir: path.dirname(module),
        };
      });
    },
  };
}

/** Gives each bundled project module its source file's `import.meta.url` (see above). */
function sourceAddresses(root: string, outDir: string, entries: Set<string>): Plugin {
  return {
    name: 'source-addresses',
    setup(b) {
      b.onLoad({ filter: /\.tsx?$/ }, async (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const contents = await fs.promises.readFile(args.path, 'utf8');
        const loader = args.path.endsWith('.tsx') ? 'tsx' : 'ts';
        if (entries.has(args.path) || !contents.includes('import.meta.url')) return { contents, loader };
        const relative = path.relative(outDir, args.path).split(path.sep).join('/');
        const address = `new URL(${JSON.stringify(relative)}, import.meta.url).href`;
        return { contents: contents.replaceAll('import.meta.url', address), loader };
      });
    },
  };
}

export async function buildServer(root = process.cwd()): Promise<string[]> {
  const outDir = path.join(root, SERVER_OUT_DIR);
  if (!fs.existsSync(path.join(root, 'build/server/index.js')))
    throw new Error('build/server/index.js is missing: React Router builds it first (`npm run build`)');
  fs.rmSync(outDir, { recursive: true, force: true });
  const entryPoints = Object.entries(SERVER_ENTRIES).map(([out, { source, production }]) => ({
    out,
    in: production ? `vitrina-production-entry:${source}` : path.join(root, source),
  }));
  const directEntries = new Set(Object.values(SERVER_ENTRIES).map(({ source }) => path.join(root, source)));
  const result = await build({
    absWorkingDir: root,
    entryPoints,
    outdir: outDir,
    bundle: true,
    // Shared code in chunks (build/node/chunk-*.js), each loaded once by whichever entry needs it.
    splitting: true,
    chunkNames: 'chunk-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    external: EXTERNAL,
    banner: { js: BANNER },
    tsconfig: path.join(root, 'tsconfig.json'),
    // Stack traces can name the TypeScript lines: node --enable-source-maps.
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'warning',
    metafile: true,
    plugins: [
      productionEntries(root),
      productionReactRouter(root),
      bundledStorefront(root),
      sourceAddresses(root, outDir, directEntries),
    ],
  });
  return Object.keys(result.metafile.outputs);
}

/**
 * The demo database: migrated and seeded in a scratch directory, closed (a clean shutdown), then
 * renamed into place. Made by the checkout's own migrations and seed, so a start that copies it
 * finds its migrations applied and its seed done.
 */
export async function buildDemoDatabase(root = process.cwd()): Promise<number> {
  const dir = path.join(root, DEMO_DATABASE_DIR);
  const partial = `${dir}.partial`;
  fs.rmSync(partial, { recursive: true, force: true });
  const database = await openDatabase({ pgliteDir: partial });
  let products: number;
  try {
    await database.migrate();
    products = (await seedDatabase(database.db)).products;
  } finally {
    await database.close();
  }
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(partial, dir);
  return products;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  let started = performance.now();
  const outputs = await buildServer();
  const js = outputs.filter((f) => f.endsWith('.js'));
  const bytes = js.reduce((sum, f) => sum + fs.statSync(f).size, 0);
  console.log(
    `built the server into ${SERVER_OUT_DIR}: ${js.length} files, ${(bytes / 1024).toFixed(0)} KB, in ${Math.round(performance.now() - started)} ms`,
  );
  started = performance.now();
  const products = await buildDemoDatabase();
  console.log(
    `built the demo database into ${DEMO_DATABASE_DIR}: ${products} products, in ${Math.round(performance.now() - started)} ms`,
  );
}
