import type { AuthProvider } from 'react-admin';
import type { MeResponse, StaffMe } from '~/shared/admin-contract';
import { adminApi } from './api';

// react-admin's auth provider over the admin API's session (docs/back-office.md "Login"). The
// login page makes the password step itself (POST auth/login) and hands the code to login(),
// which makes the second step (POST auth/totp: the session cookie). Who is logged in, their role
// and permissions come from GET auth/me; canAccess maps react-admin's resource and action onto
// the role's `resource:action` permissions, so the menu shows only what the role may open (the
// server checks the same on every call anyway).

let me: StaffMe | null = null;
let loading: Promise<StaffMe> | null = null;

/** GET auth/me, one call at a time: callers while it runs share its answer. */
function loadMe(): Promise<StaffMe> {
  loading ??= adminApi<MeResponse>('/auth/me')
    .then((answer) => {
      me = answer.data;
      return me;
    })
    .finally(() => {
      loading = null;
    });
  return loading;
}

/**
 * Who is logged in, known before any list or record is read. react-admin's List and Show show
 * their "loading" screen while its auth check runs, and look at that check again only when
 * they render for another reason (useIsAuthPending reads the query cache without watching it):
 * when a page's data arrived before the check's answer, the screen stayed on «Загрузка» for
 * good. The data provider's reads wait for this, so the data always comes after the check, and
 * the check answers at once from what is known (refreshing it in the background).
 */
export async function signedIn(): Promise<void> {
  if (!me) await loadMe();
}

/** react-admin's resources and actions → our permissions (core/staff-roles.ts). */
const RESOURCE_PERMISSION: Record<string, { read: string; write: string }> = {
  staff: { read: 'staff:read', write: 'staff:write' },
  audit: { read: 'audit:read', write: 'audit:read' },
  orders: { read: 'orders:read', write: 'orders:write' },
  offers: { read: 'stock:read', write: 'stock:adjust' },
  'offers-moves': { read: 'stock:read', write: 'stock:adjust' },
  returns: { read: 'returns:read', write: 'returns:decide' },
  customers: { read: 'customers:read', write: 'customers:write' },
  'waiting-list': { read: 'waitlist:read', write: 'waitlist:read' },
  preorders: { read: 'waitlist:read', write: 'waitlist:read' },
  reviews: { read: 'reviews:read', write: 'reviews:moderate' },
  feeds: { read: 'feeds:read', write: 'feeds:write' },
  products: { read: 'products:read', write: 'products:write' },
  sections: { read: 'products:read', write: 'sections:write' },
  exchange: { read: 'exchange:read', write: 'exchange:write' },
  'promo-codes': { read: 'promo:read', write: 'promo:write' },
  certificates: { read: 'certificates:read', write: 'certificates:write' },
  loyalty: { read: 'bonuses:read', write: 'bonuses:read' },
  content: { read: 'pages:write', write: 'pages:write' },
  'page-meta': { read: 'page_meta:write', write: 'page_meta:write' },
  'site-settings': { read: 'pages:write', write: 'pages:write' },
  redirects: { read: 'redirects:write', write: 'redirects:write' },
  'redirect-import': { read: 'redirects:write', write: 'redirects:write' },
};

export function allows(who: StaffMe | null, resource: string, action: string): boolean {
  if (!who) return false;
  const perms = RESOURCE_PERMISSION[resource];
  if (!perms) return false;
  const needed = action === 'list' || action === 'show' || action === 'read' ? perms.read : perms.write;
  return who.permissions.includes(needed);
}

export const authProvider: AuthProvider = {
  async login({ code }: { code: string }) {
    const answer = await adminApi<MeResponse>('/auth/totp', { method: 'POST', body: { code } });
    me = answer.data;
  },
  async logout() {
    me = null;
    await adminApi('/auth/logout', { method: 'POST', body: {} }).catch(() => undefined);
    return '/login';
  },
  async checkAuth() {
    // Known: answer now and refresh (the role, the session) in the background; a session that
    // ended shows on the next call of the API (401 → checkError → the login page).
    if (me) void loadMe().catch(() => undefined);
    else await loadMe();
  },
  async checkError(error: { status?: number }) {
    if (error?.status === 401) {
      me = null;
      throw error;
    }
  },
  async getIdentity() {
    const who = me ?? (await loadMe());
    return { id: who.id, fullName: who.name || who.email };
  },
  async getPermissions() {
    const who = me ?? (await loadMe());
    return who.permissions;
  },
  async canAccess({ resource, action }) {
    const who = me ?? (await loadMe().catch(() => null));
    return allows(who, resource, action);
  },
};

/** The session's staff member as last loaded (the dashboard). */
export function currentStaff(): StaffMe | null {
  return me;
}
