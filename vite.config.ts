import { reactRouter } from '@react-router/dev/vite';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

// Fewer, larger requests for the first paint: on a phone (and over HTTP/1.1's six connections
// an origin) a dozen tiny files cost more in round trips than their bytes.
// - No stylesheet request at all: the server inlines app/styles/shop.css into each document
//   (app/lib/document-styles.ts, docs/decisions/004).
// - The shell's small shared modules (shell components, lib, core rules) in one chunk that
//   every page loads anyway; route code and the modal contents stay split and lazy.
const root = path.dirname(fileURLToPath(import.meta.url));
const SHELL = [
  'app/lib/',
  'shared/',
  'core/',
  'app/components/shell/',
  'app/components/Image.tsx',
  'app/components/ProductCard.tsx',
  'app/components/NotFoundPage.tsx',
  'app/components/icons.tsx',
  'app/components/widgets/info-modals.tsx',
  'app/components/widgets/HelpLinks.tsx',
  'app/components/widgets/ChatWidget.tsx',
].map((p) => path.join(root, p));

// React Router's package exports map every condition to its development build (warnings and
// their strings included, about 4 KB compressed); the browser bundle takes the production
// build it also ships. The server keeps Node's resolution: the two render the same markup.
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

export default defineConfig({
  plugins: [reactRouter(), productionRouter],
  // '~/x' is the project root's x everywhere (tsconfig paths; tsx reads the same for Node).
  resolve: { alias: [{ find: /^~\//, replacement: `${root}/` }] },
  build: {
    assetsInlineLimit: 0,
    rollupOptions: {
      output: {
        manualChunks(id) {
          if (SHELL.some((p) => id.startsWith(p))) return 'shell';
          // react-dom's small shared module (preload(), used by the root) rides with the shell
          // instead of becoming one more request; react-dom/client stays in the entry.
          if (id.includes('/node_modules/react-dom/') && !id.includes('client')) return 'shell';
          return undefined;
        },
      },
    },
  },
});
