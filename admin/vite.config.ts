import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The back office's own build (docs/back-office.md, decision 012): a single-page app apart from
// the storefront, its own entry (admin/index.html) and output (build/admin), so nothing of it
// reaches the shop's pages. `npm run build` runs it after the storefront's; the server serves it
// at /admin/ (server/admin-app.server.ts). JSX is compiled by esbuild (tsconfig's react-jsx).
const root = path.dirname(fileURLToPath(import.meta.url));
const project = path.join(root, '..');

export default defineConfig({
  root,
  base: '/admin/',
  // The shop's public/ is the storefront's: the admin has none.
  publicDir: false,
  resolve: { alias: [{ find: /^~\//, replacement: `${project}/` }] },
  build: {
    outDir: path.join(project, 'build/admin'),
    emptyOutDir: true,
    assetsInlineLimit: 0,
    // Below the storefront's budget is no goal here, but one vendor chunk keeps the rest small.
    chunkSizeWarningLimit: 2000,
    rollupOptions: {
      // Material UI's modules start with "use client" (for React Server Components): meaningless in this bundle.
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
      output: {
        manualChunks(id) {
          if (id.includes('/node_modules/')) return 'vendor';
          return undefined;
        },
      },
    },
  },
});
