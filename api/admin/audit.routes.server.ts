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

/** A day ('2026-12-01', Moscow's midnight) or an ISO moment. */
const moment = z
  .string()
  .trim()
  .refine((v) => /^\d{4}-\d{2}-\d{2}$/.test(v) || !Number.isNaN(Date.parse(v)), 'дата: ГГГГ-ММ-ДД или ISO 8601')
  .transform((v) => (/^\d{4}-\d{2}-\d{2}$/.test(v) ? new Date(`${v}T00:00:00+03:00`) : new Date(v)));

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
    from: filterValue(moment),
    /** Before this moment; a day includes the whole day. */
    to: filterValue(z.string().trim()).transform((v, ctx) => {
      if (v === undefined) return undefined;
      if (/^\d{4}-\d{2}-\d{2}$/.test(v)) return new Date(new Date(`${v}T00:00:00+03:00`).getTime() + 86_400_000);
      const t = Date.parse(v);
      if (Number.isNaN(t)) {
        ctx.addIssue({ code: 'custom', message: 'дата: ГГГГ-ММ-ДД или ISO 8601' });
        return z.NEVER;
      }
      return new Date(t);
    }),
  },
);

export async function adminAuditRoutes(app: FastifyInstance, deps: AdminDeps): Promise<void> {
  const { db } = deps;
  adminRead(app, deps, {
    url: '/audit',
    summary: 'The audit log, newest first: filters staff_id, actor_kind, entity_type, entity_id, action, from, to (days in Moscow time, or ISO moments)',
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
    handler: async () => ({ data: (await auditActions(db)).map((a) => ({ id: a, name: a })) }) satisfies AuditActionsResponse,
  });
}
