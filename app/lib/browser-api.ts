import { useMemo } from 'react';
import { useRouteLoaderData } from 'react-router';
import { ApiClient } from '~/shared/api-client';
import type { PublicEnv } from '~/shared/context';

/**
 * The product API from the browser (suggestions, load more): an ApiClient on the public
 * API_BASE_URL the root loader hands down. Call it from effects and event handlers only.
 */
export function useBrowserApi(): ApiClient {
  const root = useRouteLoaderData('root') as { env?: PublicEnv } | undefined;
  const baseUrl = root?.env?.API_BASE_URL ?? '/backend';
  return useMemo(() => new ApiClient({ baseUrl }), [baseUrl]);
}
