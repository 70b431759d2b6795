// Staff roles of the back office (issue #29, docs/back-office.md): each role is a set of
// `resource:action` permissions. The server checks one on every admin call; the admin app reads
// the same table (through /backend/admin/auth/me) to show only what a role may open.

export const STAFF_ROLES = ['admin', 'manager', 'warehouse', 'content', 'exchange'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export const ROLE_LABELS: Record<StaffRole, string> = {
  admin: 'Администратор',
  manager: 'Менеджер',
  warehouse: 'Склад',
  content: 'Контент',
  exchange: 'Обмен с 1С',
};

/**
 * Roles that never open the back office: the 1C exchange's account logs in only at the exchange
 * endpoint (HTTP Basic, api/exchange/), and its password opens nothing else.
 */
export const NO_BACK_OFFICE_ROLES: ReadonlySet<StaffRole> = new Set(['exchange']);

/**
 * Every permission there is. `read` opens a list or a page; the other actions change something.
 * Named state changes (an order's status, a refund, a stock adjustment) have their own action, so
 * a role can see a thing without being able to do that to it.
 */
export const PERMISSIONS = [
  // Staff accounts, their sessions, the audit log and the shop's settings: the admin's alone.
  'staff:read',
  'staff:write',
  'audit:read',
  'settings:read',
  'settings:write',
  'dashboard:read',
  // Orders: `status` confirms, cancels and marks paid; `ship` hands to delivery; `fitting` records
  // what was kept at the door; `write` edits plain fields (staff notes).
  'orders:read',
  'orders:write',
  'orders:status',
  'orders:ship',
  'orders:fitting',
  // The money of orders (sums, the breakdown, payments, refunds, line prices, revenue): warehouse
  // picks and ships without it.
  'orders:money',
  // Returns: `decide` approves or refuses a request, `receive` takes the goods back.
  'returns:read',
  'returns:decide',
  'returns:receive',
  'refunds:read',
  'refunds:create',
  // Customers: `block` ends their sessions and stops logins; `export` takes personal data out.
  'customers:read',
  'customers:write',
  'customers:block',
  'customers:export',
  'promo:read',
  'promo:write',
  'certificates:read',
  'certificates:write',
  'bonuses:read',
  'bonuses:adjust',
  'waitlist:read',
  'stock:read',
  'stock:adjust',
  // Content: the catalogue and the site's texts.
  'products:read',
  'products:write',
  'photos:write',
  'sections:write',
  'pages:write',
  'blog:write',
  'page_meta:write',
  'redirects:write',
  // Product reviews (issue #32): the queue and published reviews; publish, reject, reply, the moderation setting.
  'reviews:read',
  'reviews:moderate',
  // Product feeds (issue #32): their addresses, last builds and settings (sections, products, UTM).
  'feeds:read',
  'feeds:write',
  // The 1C exchange (issue #31): its session log and settings, re-sending orders to 1C. Admin only.
  'exchange:read',
  'exchange:write',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** What each role may do (issue #29): admin everything; the others their part of the shop. */
export const ROLE_PERMISSIONS: Record<StaffRole, ReadonlySet<Permission>> = {
  admin: new Set(PERMISSIONS),
  // Orders, customers, refunds, returns, promo codes, certificates, bonuses.
  manager: new Set<Permission>([
    'dashboard:read',
    'orders:read',
    'orders:write',
    'orders:status',
    'orders:ship',
    'orders:fitting',
    'orders:money',
    'returns:read',
    'returns:decide',
    'returns:receive',
    'refunds:read',
    'refunds:create',
    'customers:read',
    'customers:write',
    'customers:block',
    'promo:read',
    'promo:write',
    'certificates:read',
    'certificates:write',
    'bonuses:read',
    'bonuses:adjust',
    'waitlist:read',
    'stock:read',
    'products:read',
    'reviews:read',
    'reviews:moderate',
  ]),
  // Stock, picking and shipping, fitting outcomes, receiving returns: orders are read for
  // picking, never their money; no refunds, no customers' list.
  warehouse: new Set<Permission>([
    'dashboard:read',
    'orders:read',
    'orders:ship',
    'orders:fitting',
    'returns:read',
    'returns:receive',
    'stock:read',
    'stock:adjust',
    'waitlist:read',
    'products:read',
  ]),
  // Products, photos, sections, pages, blog, page metadata, redirects.
  content: new Set<Permission>([
    'dashboard:read',
    'products:read',
    'products:write',
    'photos:write',
    'sections:write',
    'pages:write',
    'blog:write',
    'page_meta:write',
    'redirects:write',
    'stock:read',
    'reviews:read',
    'reviews:moderate',
    'feeds:read',
    'feeds:write',
  ]),
  // The 1C exchange's account (issue #31): no permission at all; the exchange endpoint checks the role itself.
  exchange: new Set<Permission>(),
};

export function isStaffRole(value: unknown): value is StaffRole {
  return typeof value === 'string' && (STAFF_ROLES as readonly string[]).includes(value);
}

/** Whether `role` may do `permission`; an unknown role may do nothing. */
export function can(role: string, permission: Permission): boolean {
  return isStaffRole(role) && ROLE_PERMISSIONS[role].has(permission);
}

/** The role's permissions, sorted (the admin app's copy, from /auth/me). */
export function permissionsOf(role: StaffRole): Permission[] {
  return PERMISSIONS.filter((p) => ROLE_PERMISSIONS[role].has(p));
}
