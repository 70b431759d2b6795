import { describe, expect, it } from 'vitest';
import {
  can,
  NO_BACK_OFFICE_ROLES,
  PERMISSIONS,
  permissionsOf,
  ROLE_PERMISSIONS,
  STAFF_ROLES,
  type Permission,
  type StaffRole,
} from './staff-roles';

// The whole table: each row a permission, each column a role, as issue #29 assigns them.
const A = true;
const _ = false;
//                                        admin manager warehouse content
const TABLE: [Permission, boolean, boolean, boolean, boolean][] = [
  ['staff:read', A, _, _, _],
  ['staff:write', A, _, _, _],
  ['audit:read', A, _, _, _],
  ['settings:read', A, _, _, _],
  ['settings:write', A, _, _, _],
  ['dashboard:read', A, A, A, A],
  ['orders:read', A, A, A, _],
  ['orders:write', A, A, _, _],
  ['orders:status', A, A, _, _],
  ['orders:ship', A, A, A, _],
  ['orders:fitting', A, A, A, _],
  ['orders:money', A, A, _, _],
  ['returns:read', A, A, A, _],
  ['returns:decide', A, A, _, _],
  ['returns:receive', A, A, A, _],
  ['refunds:read', A, A, _, _],
  ['refunds:create', A, A, _, _],
  ['customers:read', A, A, _, _],
  ['customers:write', A, A, _, _],
  ['customers:block', A, A, _, _],
  ['customers:export', A, _, _, _],
  ['promo:read', A, A, _, _],
  ['promo:write', A, A, _, _],
  ['certificates:read', A, A, _, _],
  ['certificates:write', A, A, _, _],
  ['bonuses:read', A, A, _, _],
  ['bonuses:adjust', A, A, _, _],
  ['waitlist:read', A, A, A, _],
  ['stock:read', A, A, A, A],
  ['stock:adjust', A, _, A, _],
  ['products:read', A, A, A, A],
  ['products:write', A, _, _, A],
  ['photos:write', A, _, _, A],
  ['sections:write', A, _, _, A],
  ['pages:write', A, _, _, A],
  ['blog:write', A, _, _, A],
  ['page_meta:write', A, _, _, A],
  ['redirects:write', A, _, _, A],
  ['reviews:read', A, A, _, A],
  ['reviews:moderate', A, A, _, A],
  ['feeds:read', A, _, _, A],
  ['feeds:write', A, _, _, A],
  ['exchange:read', A, _, _, _],
  ['exchange:write', A, _, _, _],
];

describe('staff roles', () => {
  it('the table names every permission once', () => {
    expect(TABLE.map((row) => row[0]).sort()).toEqual([...PERMISSIONS].sort());
  });

  it.each(TABLE)('%s: admin %s, manager %s, warehouse %s, content %s', (permission, ...allowed) => {
    // The 1C exchange's account (issue #31) may do nothing of the back office.
    STAFF_ROLES.forEach((role, i) =>
      expect(can(role, permission), `${role} ${permission}`).toBe(role === 'exchange' ? false : allowed[i]),
    );
  });

  it('the exchange role has no permission and no back office', () => {
    expect(permissionsOf('exchange')).toEqual([]);
    expect(NO_BACK_OFFICE_ROLES.has('exchange')).toBe(true);
    expect(STAFF_ROLES.filter((r) => NO_BACK_OFFICE_ROLES.has(r))).toEqual(['exchange']);
  });

  it('a warehouse user cannot refund, content cannot see customers, only the admin manages staff', () => {
    expect(can('warehouse', 'refunds:create')).toBe(false);
    expect(can('content', 'customers:read')).toBe(false);
    expect(STAFF_ROLES.filter((r) => can(r, 'staff:write'))).toEqual(['admin']);
  });

  it('an unknown role may do nothing', () => {
    expect(can('root', 'orders:read')).toBe(false);
    expect(can('', 'dashboard:read')).toBe(false);
    expect(can('__proto__', 'dashboard:read')).toBe(false);
  });

  it('permissionsOf lists a role in the table order', () => {
    expect(permissionsOf('admin')).toEqual([...PERMISSIONS]);
    for (const role of STAFF_ROLES) expect(new Set(permissionsOf(role as StaffRole))).toEqual(ROLE_PERMISSIONS[role]);
  });
});
