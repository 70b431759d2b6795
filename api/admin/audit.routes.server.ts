import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AuditActionsResponse, AuditListResponse } from '~/shared/admin-contract';
import { auditActions, listAudit } from '~/models/audit.server';
import { adminRead, filterValue, listQuery } from './action.server';
import type { AdminDeps } from './context.server';
import { auditItem } from './mappers';

// The audit log (audit:read, the admin's): filters by staff member, actor kind, entity, action and
// a date range; newest first. Each order's and offer's page will show its own history through
// their routes (their read permission), not through this list.

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A day ('2026-12-01': the Moscow midnight starting it, or with `endOfDay` the next one) or an ISO
 * moment; null when it is neither (2026-13-45, 'soon').
 */
function parseMoment(value: string, endOfDay: boolean): Date | null {
  const day = DAY.exec(value);
  if (day) {
    const [y, m, d] = day.slice(1).map(Number) as [number, number, number];
    const utc = new Date(Date.UTC(y, m - 1, d));
    if (utc.getUTCFullYear() !== y || utc.getUTCMonth() !== m - 1 || utc.getUTCDate() !== d) return null;
    // Moscow is UTC+3 all year.
    return new Date(utc.getTime() - 3 * 3_600_000 + (endOfDay ? 86_400_000 : 0));
  }
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : new Date(t);
}

const moment = (endOfDay: boolean) =>
  z
    .string()
    .trim()
    .max(40)
    .transform((v, ctx) => {
      const at = parseMoment(v, endOfDay);
      if (at) return at;
      ctx.addIssue({ code: 'custom', message: 'дата: ГГГГ-ММ-ДД или ISO 8601' });
      return z.NEVER;
    });

const AuditListQuery = listQuery(
  ['at'],
  { sort: 'at', order: 'desc' },
  {
    staff_id: filterValue(
      z
        .string()
        .regex(/^\d{1,9}$/)
        .transform(Number),
    ),
    actor_kind: filterValue(z.enum(['staff', 'script', 'system'])),
    entity_type: filterValue(z.string().trim().max(40)),
    entity_id: filterValue(z.string().trim().max(40)),
    action: filterValue(z.string().trim().max(60)),
    /** From this day or moment (inclusive). */
    from: filterValue(moment(false)),
    /** Up to this moment; a day includes the whole day. */
    to: filterValue(moment(true)),
  },
);

export async function adminAuditRoutes(app: FastifyInstance, deps: AdminDeps): Promise<void> {
  const { db } = deps;
  adminRead(app, deps, {
    url: '/audit',
    summary:
      'The audit log, newest first: filters staff_id, actor_kind, entity_type, entity_id, action, from, to (days in Moscow time, or ISO moments)',
    permission: 'audit:read',
    query: AuditListQuery,
    response: AuditListResponse,
    handler: async ({ query }) => {
      const { order, offset, limit } = query;
      const { rows, total } = await listAudit({
        db,
        filter: {
          staffId: query.staff_id,
          actorKind: query.actor_kind,
          entityType: query.entity_type,
          entityId: query.entity_id,
          action: query.action,
          from: query.from,
          to: query.to,
        },
        order,
        offset,
        limit,
      });
      return { data: rows.map(auditItem), total } satisfies AuditListResponse;
    },
  });

  adminRead(app, deps, {
    url: '/audit/actions',
    summary: "The actions found in the log (the list's action filter)",
    permission: 'audit:read',
    response: AuditActionsResponse,
    handler: async () =>
      ({ data: (await auditActions(db)).map((a) => ({ id: a, name: a })) }) satisfies AuditActionsResponse,
  });
}
