import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ServerBuild } from 'react-router';

// The storefront's server side, as React Router builds it (`npm run build`). Run under tsx, the
// server loads it from build/server/index.js at start; the built server (scripts/build-server.ts)
// replaces this module with a static import of that file, so the storefront is bundled with the
// server and shares its one copy of React Router.

export const STOREFRONT_BUILD = 'build/server/index.js';

export function hasStorefrontBuild(): boolean {
  return fs.existsSync(path.resolve(STOREFRONT_BUILD));
}

export async function loadStorefrontBuild(): Promise<ServerBuild> {
  return (await import(pathToFileURL(path.resolve(STOREFRONT_BUILD)).href)) as ServerBuild;
}
