import { reactRouter } from '@react-router/dev/vite';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// Fewer, larger requests for the first paint: on a phone (and over HTTP/1.1's six connections
// an origin) a dozen tiny files cost more in round trips than their bytes.
// - One stylesheet for the whole shop (about 12 KB compressed) instead of one per route.
// - The shell's small shared modules (shell components, lib, core rules) in one chunk that
//   every page loads anyway; route code and the modal contents stay split and lazy.
const root = path.dirname(fileURLToPath(import.meta.url));
const SHELL = [
  'app/lib/',
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

export default defineConfig({
  plugins: [reactRouter()],
  build: {
    assetsInlineLimit: 0,
    cssCodeSplit: false,
    rollupOptions: {
      output: {
        manualChunks(id) {
          if (SHELL.some((p) => id.startsWith(p))) return 'shell';
          return undefined;
        },
      },
    },
  },
});
