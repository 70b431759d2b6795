import { reactRouter } from '@react-router/dev/vite';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OutputChunk } from 'rollup';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

// Fewer, larger requests for the first paint: on a phone (and over HTTP/1.1's six connections
// an origin) a dozen tiny files cost more in round trips than their bytes.
// - No stylesheet request at all: the server inlines app/styles/shop.css into each document
//   (app/lib/document-styles.ts, docs/decisions/004).
// - The shell's small shared modules (shell components, lib, core rules, the root route's own
//   code) in one chunk that every page loads anyway; route code and the modal contents stay split and lazy, and so do
//   the catalogue's two pages (app/lib/lazy-part.tsx, preloaded by the server: vitrina:page-chunks
//   below) and the shell's widgets that wait for the shopper (app/lib/on-demand.ts: the search
//   suggestions, the newsletter form, the product gallery's full-screen view; the chat; the API
//   client).
const root = path.dirname(fileURLToPath(import.meta.url));
const SHELL = [
  'app/lib/',
  'shared/',
  'core/',
  'app/components/shell/',
  'app/ui/',
  'app/ui/Image.tsx',
  'app/ui/ProductCard.tsx',
  'app/ui/NotFoundPage.tsx',
  'app/ui/icons.tsx',
  'app/ui/info-modals.tsx',
  'app/components/shell/HelpLinks.tsx',
  'app/components/widgets/ChatWidget.tsx',
  // The API's lazy stand-in (its client loads with the first call): a route's code, not a request of its own.
  'app/lib/browser-api.ts',
  // Small rules that the product page, the quick add, the basket and the catalogue route's meta
  // share: alone, each was a request of its own (about 0.5 KB of headers) for under 1 KB.
  'core/size-selection.ts',
  'core/instalments.ts',
  'core/promo.ts',
  'app/lib/basket-state.ts',
  'app/components/basket/buy-target.ts',
  'app/components/product/product-data.ts',
  'core/listing-query.ts',
  // The one Russian plural (listings' counts, the basket, bonuses, delivery texts): 0.1 KB.
  'core/plural.ts',
  // Product cards' rating texts (issue #32): in the product page's chunk, a listing loaded that chunk.
  'core/rating-text.ts',
  // The listing's and the product page's breadcrumbs: alone, a request of 0.4 KB on both pages.
  'app/ui/Breadcrumbs.tsx',
  // The catalogue route's page-part loader: 40 bytes in the shell (React's `use` and
  // preloadModule are there anyway), 150 fewer in the route's chunk.
  'app/lib/lazy-part.tsx',
  // The two page parts' loaders, which product cards also use (to start the product page's code
  // on intent): a few hundred bytes.
  'app/pages/catalog-parts.ts',
].map((p) => path.join(root, p));

// The product page (a page part of the catalogue route) with its buy buttons in one chunk: the
// buttons are shared with the quick add's modal, so alone they were a request of their own (1.5 KB
// and 0.5 KB of headers) on every product page; the quick add now loads the page's 3 KB with them.
const PRODUCT_PAGE = [
  'app/pages/ProductPage.tsx',
  'app/components/product/Gallery.tsx',
  'app/components/product/ColorVariants.tsx',
  'app/components/product/ProductDetails.tsx',
  'app/ui/SizePicker.tsx',
  'app/components/product/RecentlyViewed.tsx',
  'app/components/basket/BuyActions.tsx',
  'app/components/basket/basket-modals.tsx',
].map((p) => path.join(root, p));

// Only what the root layout imports (statically, at any depth) or the named shell files: a module
// of lib/, shared/ or core/ that only a route or a lazy modal uses stays with that route or modal
// (the checkout's, the login's, the account's rules do not ride on every page).
const ROOT_MODULE = path.join(root, 'app/root.tsx');
const DIALOG = path.join(root, 'app/ui/Dialog.tsx');
const NAMED = SHELL.filter((p) => /\.tsx?$/.test(p));
type ModuleInfoOf = (id: string) => { importers: readonly string[] } | null;
// One answer per module and build (the client and the server build each have their graph).
const rootReaches = new WeakMap<ModuleInfoOf, Map<string, boolean>>();
function fromRoot(id: string, getModuleInfo: ModuleInfoOf, path: Set<string> = new Set()): boolean {
  let rootReach = rootReaches.get(getModuleInfo);
  if (!rootReach) rootReaches.set(getModuleInfo, (rootReach = new Map()));
  const known = rootReach.get(id);
  if (known !== undefined) return known;
  if (id === ROOT_MODULE) return true;
  if (path.has(id)) return false;
  path.add(id);
  const found = (getModuleInfo(id)?.importers ?? []).some((importer) => fromRoot(importer, getModuleInfo, path));
  path.delete(id);
  if (found || path.size === 0) rootReach.set(id, found);
  return found;
}
function inShell(id: string, getModuleInfo: ModuleInfoOf): boolean {
  return NAMED.includes(id) || fromRoot(id, getModuleInfo);
}

// React Router's package exports map every condition to its development build (warnings and
// their strings included, about 4 KB compressed); the browser bundle takes the production
// build it also ships. The server, which keeps react-router external, gets the same production
// build from server/production-env.ts (a resolve hook) whenever NODE_ENV is production.
const routerBuild = path.join(root, 'node_modules/react-router/dist/production');
const productionRouter: Plugin = {
  name: 'vitrina:react-router-production',
  apply: 'build',
  config(_config, env) {
    if (env.isSsrBuild) return;
    return {
      resolve: {
        alias: [
          { find: /^react-router$/, replacement: path.join(routerBuild, 'index.mjs') },
          { find: /^react-router\/dom$/, replacement: path.join(routerBuild, 'dom-export.mjs') },
        ],
      },
    };
  },
};

// A page part that loads apart from its route's chunk (app/lib/lazy-part.tsx: the catalogue's
// listing and product pages) has to be preloaded by the server, which alone knows which part a
// document shows, so it can load in parallel with the route's chunks, not after them. The client
// build (React Router builds it first) writes, for each module loaded with import(), its chunk
// and the chunks that imports, to build/page-chunks.json; the server build reads that file and
// answers `chunksOf(source)`. (Vite's manifest names a module only when it is its chunk's
// facade, not the product page's, which shares its chunk with the buy buttons: PRODUCT_PAGE.)
const PAGE_CHUNKS = 'virtual:vitrina/page-chunks';
// build/: react-router.config.ts's buildDirectory.
const PAGE_CHUNKS_FILE = path.join(root, 'build/page-chunks.json');
const pageChunks: Plugin = {
  name: 'vitrina:page-chunks',
  resolveId(id) {
    return id === PAGE_CHUNKS ? `\0${PAGE_CHUNKS}` : undefined;
  },
  load(id, options) {
    if (id !== `\0${PAGE_CHUNKS}`) return undefined;
    const lookup = (table: string) =>
      `const table = ${table};\nexport function chunksOf(source) {\n  const files = table[source];\n  if (!files) throw new Error(source + ' is no lazily loaded module of the client build');\n  return files;\n}\n`;
    // The browser's copy is never asked (the server alone writes the preloads).
    if (!options?.ssr) return 'export function chunksOf() { return []; }';
    // The dev server serves each source module at its own path.
    if (this.environment.mode === 'dev') return 'export function chunksOf(source) { return ["/" + source]; }';
    return lookup(fs.readFileSync(PAGE_CHUNKS_FILE, 'utf8'));
  },
  generateBundle(_options, bundle) {
    if (this.environment.name !== 'client') return;
    const base = this.environment.config.base;
    const chunks = new Map<string, OutputChunk>();
    for (const output of Object.values(bundle)) if (output.type === 'chunk') chunks.set(output.fileName, output);
    const files = (file: string, seen: Set<string>): void => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const imported of chunks.get(file)?.imports ?? []) files(imported, seen);
    };
    const table: Record<string, string[]> = {};
    for (const chunk of chunks.values()) {
      for (const moduleId of chunk.moduleIds) {
        if (
          moduleId.startsWith('\0') ||
          moduleId.includes('?') ||
          !this.getModuleInfo(moduleId)?.dynamicImporters.length
        )
          continue;
        const seen = new Set<string>();
        files(chunk.fileName, seen);
        table[path.relative(root, moduleId)] = [...seen].map((file) => `${base}${file}`);
      }
    }
    fs.mkdirSync(path.dirname(PAGE_CHUNKS_FILE), { recursive: true });
    fs.writeFileSync(PAGE_CHUNKS_FILE, JSON.stringify(table));
  },
};

// VITRINA_CHUNK_REPORT=file npm run build: what each client chunk holds, module by module (its
// minified bytes and brotli alone), to see what a page's first scripts carry (issue #33).
const chunkReport: Plugin = {
  name: 'vitrina:chunk-report',
  apply: 'build',
  generateBundle(_options, bundle) {
    const file = process.env.VITRINA_CHUNK_REPORT;
    if (!file || this.environment.name !== 'client') return;
    const brotli = (code: string) =>
      zlib.brotliCompressSync(code, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
    const chunks = Object.values(bundle)
      .filter((o): o is OutputChunk => o.type === 'chunk')
      .map((chunk) => ({
        file: chunk.fileName,
        bytes: chunk.code.length,
        brotli: brotli(chunk.code),
        imports: chunk.imports,
        modules: Object.entries(chunk.modules)
          .map(([id, m]) => ({
            id: path.relative(root, id),
            bytes: m.renderedLength,
            brotli: m.code ? brotli(m.code) : 0,
          }))
          .sort((a, b) => b.bytes - a.bytes),
      }));
    fs.writeFileSync(file, JSON.stringify(chunks, null, 1));
  },
};

export default defineConfig({
  plugins: [reactRouter(), productionRouter, pageChunks, chunkReport],
  // '~/x' is the project root's x everywhere (tsconfig paths; tsx reads the same for Node).
  resolve: { alias: [{ find: /^~\//, replacement: `${root}/` }] },
  build: {
    assetsInlineLimit: 0,
    rollupOptions: {
      output: {
        manualChunks(id, { getModuleInfo }) {
          if (SHELL.some((p) => id.startsWith(p)) && inShell(id, getModuleInfo)) return 'shell';
          if (PRODUCT_PAGE.includes(id)) return 'ProductPage';
          // The dialog (the listing's filters, the product page's reviews and light box) stays a chunk of
          // its own: merged into the product page's, a listing loaded the whole product page's code.
          if (id === DIALOG) return 'Dialog';
          // The root route's own code (1 KB) too: React Router's module for it becomes a few
          // re-exports from the shell, which every page loads anyway.
          if (id.startsWith(ROOT_MODULE)) return 'shell';
          // react-dom's small shared module (preload(), used by the root) rides with the shell
          // instead of becoming one more request; react-dom/client stays in the entry.
          if (id.includes('/node_modules/react-dom/') && !id.includes('client')) return 'shell';
          return undefined;
        },
      },
    },
  },
});
