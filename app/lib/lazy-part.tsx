import { use, type ComponentType } from 'react';
import { preloadModule } from 'react-dom';
import { chunksOf } from 'virtual:vitrina/page-chunks';

export interface LazyPart<P> {
  /** Renders the part; suspends (no Suspense boundary of its own) until its chunk is in. */
  Part: ComponentType<P>;
  /** Starts loading the part's chunk (a later call returns the same load). */
  preload(): Promise<ComponentType<P>>;
}

/**
 * A page's component in a chunk of its own, for a route that renders one of several pages (the
 * catalogue: a listing or a product), so a page does not download the other's code.
 * - On the server the render waits for it (no boundary: the shell waits, no fallback is streamed),
 *   and it writes <link rel="modulepreload"> for the part's chunks into the head, which
 *   app/lib/module-preloads.server.ts defers with React Router's own: they load in parallel.
 * - Hydration waits for it at the root (as React Router's own data does): the server's HTML stays
 *   as it is and hydrates in one pass.
 * - A client-side navigation suspends in React Router's transition: the old page stays on screen
 *   until the chunk is in. Once loaded, `use` reads it at once (the promise carries its value).
 * `source` is the module's path from the project root, as the client build's chunk list names it
 * (vite.config.ts, vitrina:page-chunks); a wrong one fails when the server starts.
 */
export function lazyPart<P extends object>(source: string, load: () => Promise<ComponentType<P>>): LazyPart<P> {
  const hrefs = import.meta.env.SSR ? chunksOf(source) : [];
  let loading: Promise<ComponentType<P>> | undefined;
  function preload(): Promise<ComponentType<P>> {
    if (loading) return loading;
    const started = load();
    started.then(
      // The fields React itself sets on a promise it has seen settle: `use` then reads it at once.
      (component) => Object.assign(started, { status: 'fulfilled', value: component }),
      // A chunk that failed (a dropped connection) is asked again by the next render.
      () => {
        if (loading === started) loading = undefined;
      },
    );
    return (loading = started);
  }
  function Part(props: P) {
    for (const href of hrefs) preloadModule(href);
    const Component = use(preload());
    return <Component {...props} />;
  }
  return { Part, preload };
}
