import { useMemo } from 'react';
import type { ApiClient } from '~/shared/api-client';
import { useRootData } from '~/app/lib/root-data';

/** The product API's calls as the browser makes them (every one returns a promise). */
export type BrowserApi = Pick<ApiClient, keyof ApiClient>;

/**
 * The product API from the browser (suggestions, load more): an ApiClient on the public
 * API_BASE_URL the root loader hands down. Call it from effects and event handlers only.
 * The client's code (every call of SPEC §7, some 2 KB compressed) loads with the first call,
 * not with the shell: most pages make none before the shopper does something.
 */
export function useBrowserApi(): BrowserApi {
  const root = useRootData();
  const baseUrl = root?.env?.API_BASE_URL ?? '/backend';
  return useMemo(() => lazyClient(baseUrl), [baseUrl]);
}

function lazyClient(baseUrl: string): BrowserApi {
  let client: Promise<ApiClient> | undefined;
  const load = () => (client ??= import('~/shared/api-client').then(({ ApiClient }) => new ApiClient({ baseUrl })));
  // Each method, called, waits for the client and calls its namesake. No `then`: the object
  // itself is no promise.
  return new Proxy({} as BrowserApi, {
    get: (_target, name) =>
      typeof name !== 'string' || name === 'then'
        ? undefined
        : (...args: unknown[]) =>
            load().then((api) =>
              (api[name as keyof BrowserApi] as (...a: unknown[]) => Promise<unknown>).apply(api, args),
            ),
  });
}
