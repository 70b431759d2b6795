import { useRouteLoaderData } from 'react-router';
import type { MenuSection } from '~/shared/contract';
import type { PublicEnv } from '~/shared/context';

/** What the root route's loader gives every page (app/root.tsx holds its loader to this type). */
export interface RootData {
  menu: MenuSection[];
  siteUrl: string;
  env: PublicEnv;
}

/** The root loader's data, typed once; undefined where the root has none (its error boundary). */
export function useRootData(): RootData | undefined {
  return useRouteLoaderData('root') as RootData | undefined;
}
