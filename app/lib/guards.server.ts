import { redirect } from 'react-router';
import { readCookie } from '~/shared/cookies';

// SPEC §2 guards: a route names the guard it needs; an unknown name is a programming
// error and must fail loudly rather than let the shopper through.
const GUARDS = {
  /** Personal pages need the token cookie, otherwise the shopper logs in first. */
  auth: (request: Request): string | null => (readCookie(request.headers.get('cookie'), 'token') ? null : '/auth/'),
} as const;

export type GuardName = keyof typeof GUARDS;

export function runGuard(name: string, request: Request): void {
  if (!Object.hasOwn(GUARDS, name)) throw new Error(`Unknown route guard: ${name}`);
  const target = GUARDS[name as GuardName](request);
  if (target) throw redirect(target);
}
