import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  ReasonBody,
  StaffCreateBody,
  StaffLinkResponse,
  StaffListResponse,
  StaffOneResponse,
  StaffPatchBody,
  StaffRoleBody,
  StaffSessionsEndedResponse,
  StaffSessionsResponse,
} from '~/shared/admin-contract';
import { STAFF_ROLES } from '~/core/staff-roles';
import {
  changeStaffRole,
  createStaff,
  endStaffSessionsBy,
  getStaff,
  listStaff,
  renameStaff,
  resetStaffTotp,
  setStaffDisabled,
  staffAuditView,
  type StaffChange,
} from '~/models/staff.server';
import { listStaffSessions } from '~/models/staff-sessions.server';
import { notFound } from '~/api/http.server';
import { adminChange, adminRead, filterValue, IdParams, listQuery, refusal } from './action.server';
import type { AdminDeps } from './context.server';
import { setupUrl, staffItem, staffSessionItem } from './mappers';

// Staff management (admin only: staff:read, staff:write): list, one, create (a one-time link),
// rename (PATCH), change role, disable and enable, reset the authenticator (a new link), end
// sessions. Each change is audited with the row before and after (no hash, secret or token).

const Role = z.enum(STAFF_ROLES, { error: 'Роль: admin, manager, warehouse, content или exchange' });

const StaffListQuery = listQuery(
  ['id', 'email', 'name', 'role', 'created_at'],
  { sort: 'id', order: 'asc' },
  {
    /** Part of the e-mail or name. */
    q: filterValue(z.string().trim().max(100)),
    role: filterValue(Role),
    disabled: filterValue(z.enum(['true', 'false']).transform((v) => v === 'true')),
    /** Several records by id, comma-separated (react-admin's getMany). */
    ids: filterValue(
      z
        .string()
        .regex(/^\d{1,9}(,\d{1,9}){0,99}$/)
        .transform((v) => v.split(',').map(Number)),
    ),
  },
);

export async function adminStaffRoutes(app: FastifyInstance, deps: AdminDeps): Promise<void> {
  const { db, siteUrl } = deps;

  adminRead(app, deps, {
    url: '/staff',
    summary: 'Staff accounts: filters q (e-mail or name), role, disabled, ids',
    permission: 'staff:read',
    query: StaffListQuery,
    response: StaffListResponse,
    handler: async ({ query }) => {
      const { sort, order, offset, limit, ids, ...filter } = query;
      if (ids) {
        const rows = (await Promise.all(ids.map((id) => getStaff(db, id)))).filter((r) => r !== null);
        return { data: rows.map((r) => staffItem(r, deps.now())), total: rows.length } satisfies StaffListResponse;
      }
      const { rows, total } = await listStaff({ db, filter, sort, order, offset, limit });
      const now = deps.now();
      return { data: rows.map((r) => staffItem(r, now)), total } satisfies StaffListResponse;
    },
  });

  adminRead(app, deps, {
    url: '/staff/:id',
    summary: 'One staff account',
    permission: 'staff:read',
    params: IdParams,
    response: StaffOneResponse,
    handler: async ({ params, reply }) => {
      const row = await getStaff(db, params.id);
      if (!row) return notFound(reply);
      return { data: staffItem(row, deps.now()) } satisfies StaffOneResponse;
    },
  });

  adminRead(app, deps, {
    url: '/staff/:id/sessions',
    summary: "A staff member's sessions, newest first (the last 50)",
    permission: 'staff:read',
    params: IdParams,
    response: StaffSessionsResponse,
    handler: async ({ params }) => {
      const rows = await listStaffSessions(db, { staffId: params.id });
      return { data: rows.map(staffSessionItem), total: rows.length } satisfies StaffSessionsResponse;
    },
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/staff',
    summary: 'A new staff account: answers its one-time link (set the password, enrol the authenticator), shown once',
    permission: 'staff:write',
    body: StaffCreateBody.extend({ role: Role }),
    response: StaffLinkResponse,
    run: async ({ tx, body, now }) => {
      const r = await createStaff(tx, { email: body.email, name: body.name, role: body.role, now });
      if (!r.ok) return refusal(r);
      return {
        ok: true,
        status: 201,
        body: {
          data: staffItem(r.staff, now),
          setup_url: setupUrl(siteUrl, r.setupToken),
          setup_expires_at: (r.staff.setupExpiresAt as Date).toISOString(),
        },
        audit: { action: 'staff.create', entityType: 'staff', entityId: r.staff.id, after: staffAuditView(r.staff) },
      };
    },
  });

  /** The common answer of a change to one account. */
  const changed = (action: string, r: StaffChange, now: Date, reason?: string) => {
    if (!r.ok) return refusal(r);
    return {
      ok: true as const,
      body: { data: staffItem(r.after, now) },
      audit: {
        action,
        entityType: 'staff',
        entityId: r.after.id,
        before: staffAuditView(r.before),
        after: { ...staffAuditView(r.after), ...(r.sessionsEnded ? { sessions_ended: r.sessionsEnded } : {}) },
        reason: reason ?? null,
      },
    };
  };

  adminChange(app, deps, {
    method: 'PATCH',
    url: '/staff/:id',
    summary: "Plain fields: the staff member's name",
    permission: 'staff:write',
    params: IdParams,
    body: StaffPatchBody,
    response: StaffOneResponse,
    run: async ({ tx, params, body, now }) =>
      changed('staff.rename', await renameStaff(tx, { id: params.id, name: body.name }), now),
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/staff/:id/role',
    summary: 'A new role (the last active admin keeps theirs)',
    permission: 'staff:write',
    params: IdParams,
    body: StaffRoleBody.extend({ role: Role }),
    response: StaffOneResponse,
    run: async ({ tx, params, body, now }) =>
      changed('staff.role', await changeStaffRole(tx, { id: params.id, role: body.role }), now, body.reason),
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/staff/:id/disable',
    summary: 'Disables the account and ends its sessions (never the last active admin)',
    permission: 'staff:write',
    params: IdParams,
    body: ReasonBody,
    response: StaffOneResponse,
    run: async ({ tx, params, body, now }) =>
      changed('staff.disable', await setStaffDisabled(tx, { id: params.id, disabled: true, now }), now, body.reason),
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/staff/:id/enable',
    summary: 'Enables a disabled account',
    permission: 'staff:write',
    params: IdParams,
    body: ReasonBody,
    response: StaffOneResponse,
    run: async ({ tx, params, body, now }) =>
      changed('staff.enable', await setStaffDisabled(tx, { id: params.id, disabled: false, now }), now, body.reason),
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/staff/:id/end-sessions',
    summary: 'Ends every session of the staff member (the account stays)',
    permission: 'staff:write',
    params: IdParams,
    body: ReasonBody,
    response: StaffSessionsEndedResponse,
    run: async ({ tx, params, body, now }) => {
      const r = await endStaffSessionsBy(tx, { id: params.id, now });
      if (!r.ok) return refusal(r);
      return {
        ok: true,
        body: { data: staffItem(r.after, now), sessions_ended: r.sessionsEnded },
        audit: {
          action: 'staff.end_sessions',
          entityType: 'staff',
          entityId: r.after.id,
          after: { sessions_ended: r.sessionsEnded },
          reason: body.reason ?? null,
        },
      };
    },
  });

  // A lost authenticator (reset-totp: the link asks the current password) or a forgotten password
  // (reset-password: the link sets both again). Both end every session and answer the link, once.
  for (const [name, action, forgetPassword, summary] of [
    [
      'reset-totp',
      'staff.reset_totp',
      false,
      'A lost authenticator: removes the key, ends the sessions, answers a one-time link to enrol a new one (the password is asked there)',
    ],
    [
      'reset-password',
      'staff.reset_password',
      true,
      'A forgotten password: removes it and the authenticator, ends the sessions, answers a one-time link that sets both',
    ],
  ] as const)
    adminChange(app, deps, {
      method: 'POST',
      url: `/staff/:id/${name}`,
      summary,
      permission: 'staff:write',
      params: IdParams,
      body: ReasonBody,
      response: StaffLinkResponse,
      run: async ({ tx, params, body, now }) => {
        const r = await resetStaffTotp(tx, { id: params.id, now, forgetPassword });
        if (!r.ok) return refusal(r);
        return {
          ok: true,
          body: {
            data: staffItem(r.after, now),
            setup_url: setupUrl(siteUrl, r.setupToken),
            setup_expires_at: (r.after.setupExpiresAt as Date).toISOString(),
          },
          audit: {
            action,
            entityType: 'staff',
            entityId: r.after.id,
            before: staffAuditView(r.before),
            after: { ...staffAuditView(r.after), sessions_ended: r.sessionsEnded },
            reason: body.reason ?? null,
          },
        };
      },
    });
}
