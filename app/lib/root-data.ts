import { useRouteLoaderData } from 'react-router';
import type { MenuSection } from '~/shared/contract';
import type { PublicEnv } from '~/shared/context';
import { SITE_DEFAULTS, type SiteSettings } from '~/shared/site-defaults';

/** What the root route's loader gives every page (app/root.tsx holds its loader to this type). */
export interface RootData {
  menu: MenuSection[];
  siteUrl: string;
  env: PublicEnv;
  /** The site's texts staff edit (banner, home page, shops, stylist chat). */
  site: SiteSettings;
}

// The one way to read the root loader's data: components call useRootData(), `meta` functions
// rootDataOf(args.matches). Both hold it to RootData here, so no page casts it on its own.

/** The root loader's data, typed once; undefined where the root has none (its error boundary). */
export function useRootData(): RootData | undefined {
  return useRouteLoaderData('root') as RootData | undefined;
}

/** The same in a route's `meta` function, from its `matches`. */
export function rootDataOf(matches: ReadonlyArray<{ id: string; data?: unknown } | undefined>): RootData | undefined {
  return matches.find((m) => m?.id === 'root')?.data as RootData | undefined;
}

/** The site's texts staff edit; today's defaults where the root has no data (its error boundary). */
export function useSiteSettings(): SiteSettings {
  return useRootData()?.site ?? SITE_DEFAULTS;
}
