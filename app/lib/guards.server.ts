import type { ApiClient } from '~/shared/api-client';
import { requireShopper } from './session.server';

// SPEC §2 guards: a route names the guard it needs; an unknown name is a programming
// error and must fail loudly rather than let the shopper through.
const GUARDS = {
  /** Personal pages need a logged-in customer, otherwise the shopper logs in first. */
  auth: async (request: Request, api: ApiClient): Promise<void> => {
    await requireShopper(request, api);
  },
} as const;

export type GuardName = keyof typeof GUARDS;

export async function runGuard(name: string, request: Request, api: ApiClient): Promise<void> {
  if (!Object.hasOwn(GUARDS, name)) throw new Error(`Unknown route guard: ${name}`);
  await GUARDS[name as GuardName](request, api);
}
