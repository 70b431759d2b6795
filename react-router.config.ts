import type { Config } from '@react-router/dev/config';

export default {
  appDirectory: 'app',
  buildDirectory: 'build',
  ssr: true,
  // Every route's manifest entry comes with the document. Lazy discovery fetched them after
  // hydration and patched the router, and that state update made React hydrate at once the parts
  // of the page left to hydrate later (app/lib/hydrate-later.tsx); it also scanned the document's
  // links (~14 ms of a throttled category page, issue #33).
  routeDiscovery: { mode: 'initial' },
} satisfies Config;
