import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  CustomerBlockBody,
  CustomerBonusBody,
  CustomerListResponse,
  CustomerOneResponse,
  CustomerUnblockBody,
} from '~/shared/admin-contract';
import {
  customerExportBatches,
  customerExportScope,
  getAdminCustomer,
  listAdminCustomers,
  setCustomerBlocked,
  type CustomerExportRow,
} from '~/models/admin-customers.server';
import { adjustBonuses } from '~/models/loyalty.server';
import { entityAudit, writeAudit } from '~/models/audit.server';
import { sendCsv } from './csv.server';
import { notFound } from '~/api/http.server';
import { auditItem } from './mappers';
import { adminChange, adminRead, filterValue, IdParams, listQuery, refusal } from './action.server';
import { staffActor, type AdminDeps } from './context.server';

// Customers (issue #29): search by phone, e-mail or name; one customer's page (profile,
// addresses, orders, returns, bonus ledger, certificates, newsletter); the manual bonus
// adjustment with its reason (bonuses:adjust), blocking and unblocking (customers:block; blocking
// ends their sessions and stops their logins). Reading needs customers:read (manager, admin):
// warehouse and content get 403. Only the admin exports their personal data (customers:export):
// the list's filter as CSV, streamed, each export in the audit log.

const CustomerListQuery = listQuery(
  ['id'],
  { sort: 'id', order: 'desc' },
  { q: filterValue(z.string().trim().max(100)) },
);
const CustomerExportQuery = z.object({ q: filterValue(z.string().trim().max(100)) }).strict();

/** The export's columns: the heading, and each customer's fields. */
const EXPORT_HEADING = [
  '№',
  'Телефон',
  'E-mail',
  'Фамилия',
  'Имя',
  'Отчество',
  'День рождения',
  'Зарегистрирован',
  'Рассылка',
  'Заблокирован',
];
const exportFields = (c: CustomerExportRow) => [
  c.id,
  c.phone,
  c.email,
  c.lastName,
  c.firstName,
  c.secondName,
  c.birthday,
  moscowDateTime(c.createdAt),
  c.subscribed,
  c.blockedAt ? moscowDateTime(c.blockedAt) : '',
];
/** '2026-12-01 14:05' in Moscow time (UTC+3 all year), as a spreadsheet reads a date and time. */
const moscowDateTime = (d: Date) => new Date(d.getTime() + 3 * 3_600_000).toISOString().slice(0, 16).replace('T', ' ');

const fullName = (r: { lastName: string; firstName: string; secondName: string }) =>
  [r.lastName, r.firstName, r.secondName].filter(Boolean).join(' ');

export async function adminCustomerRoutes(app: FastifyInstance, deps: AdminDeps): Promise<void> {
  const { db } = deps;

  adminRead(app, deps, {
    url: '/customers',
    summary: 'Customers, newest first: q finds part of the phone (3+ digits), e-mail or name',
    permission: 'customers:read',
    query: CustomerListQuery,
    response: CustomerListResponse,
    handler: async ({ query }) => {
      const { rows, total } = await listAdminCustomers(db, { q: query.q, offset: query.offset, limit: query.limit });
      return {
        data: rows.map((r) => ({
          id: r.id,
          phone: r.phone,
          email: r.email,
          name: fullName(r),
          created_at: r.createdAt.toISOString(),
          blocked: r.blockedAt !== null,
        })),
        total,
      } satisfies CustomerListResponse;
    },
  });

  adminRead(app, deps, {
    url: '/customers/export.csv',
    summary:
      "The customers of the list (its filter q) as CSV for a spreadsheet: UTF-8 with a byte order mark, ';' between fields, newest first; streamed in batches; each export in the audit log (customer.export: who, the filter, the rows)",
    permission: 'customers:export',
    query: CustomerExportQuery,
    response: z.string(),
    contentType: 'text/csv; charset=utf-8',
    handler: async ({ query, req, reply, staff }) => {
      const now = deps.now();
      const scope = await customerExportScope(db, { q: query.q });
      // Recorded before the first row leaves: no export without its audit row (a failed insert is a 500, and nothing went out).
      await writeAudit(
        db,
        staffActor(req),
        {
          action: 'customer.export',
          entityType: 'customer',
          entityId: '*',
          after: { filter: { q: query.q ?? null }, rows: scope.rows, format: 'csv' },
        },
        now,
      );
      req.log.info(
        { admin: 'export', staffId: staff.id, rows: scope.rows, q: query.q ?? null },
        'admin: customers exported',
      );
      return sendCsv(req, reply, {
        fileName: `customers-${moscowDateTime(now).slice(0, 10)}.csv`,
        heading: EXPORT_HEADING,
        batches: async function* () {
          if (scope.rows === 0) return;
          for await (const batch of customerExportBatches(db, { q: query.q, maxId: scope.maxId }))
            yield batch.map(exportFields);
        },
      });
    },
  });

  const one = async (id: number, tx = db) => {
    const c = await getAdminCustomer(tx, id, deps.now());
    if (!c) return null;
    return {
      data: {
        id: c.id,
        phone: c.phone,
        email: c.email,
        name: fullName(c),
        first_name: c.firstName,
        last_name: c.lastName,
        second_name: c.secondName,
        birthday: c.birthday,
        created_at: c.createdAt.toISOString(),
        blocked: c.blockedAt !== null,
        blocked_at: c.blockedAt?.toISOString() ?? null,
        blocked_reason: c.blockedReason,
        sessions: c.liveSessions,
        subscribed: c.subscribed,
        newsletter_status: c.newsletterStatus,
        bonus_kopecks: c.bonusKopecks,
        addresses: c.addresses.map((a) => ({ id: a.id, fields: a.fields, created_at: a.createdAt.toISOString() })),
        orders: c.orders.map((o) => ({
          id: o.id,
          status: o.status,
          total_kopecks: o.totalKopecks,
          created_at: o.createdAt.toISOString(),
        })),
        returns: c.returns.map((r) => ({
          id: r.id,
          order_id: r.orderId,
          status: r.status,
          created_at: r.createdAt.toISOString(),
        })),
        bonus_moves: c.bonusMoves.map((m) => ({
          id: m.id,
          kind: m.kind,
          amount_kopecks: m.amountKopecks,
          order_id: m.orderId,
          return_id: m.returnRequestId,
          created_at: m.createdAt.toISOString(),
          expires_at: m.amountKopecks > 0 ? (m.expiresAt?.toISOString() ?? null) : null,
        })),
        certificates: c.certificates.map((g) => ({
          id: g.id,
          code_tail: g.code.slice(-4),
          kind: g.kind,
          nominal_kopecks: g.nominalKopecks,
          balance_kopecks: g.balanceKopecks,
          order_id: g.orderId,
          expires_at: g.expiresAt.toISOString(),
        })),
        audit: (await entityAudit(tx, 'customer', id)).map(auditItem),
      },
    } satisfies CustomerOneResponse;
  };

  adminRead(app, deps, {
    url: '/customers/:id',
    summary:
      'One customer: profile, addresses, orders, returns, bonus balance and ledger, certificates, newsletter, blocked or not',
    permission: 'customers:read',
    params: IdParams,
    response: CustomerOneResponse,
    handler: async ({ params, reply }) => (await one(params.id)) ?? notFound(reply),
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/customers/:id/bonuses',
    summary:
      'Adjusts the bonus balance by hand with a reason: + a lot valid 12 months, − from the lots expiring first; never below zero',
    permission: 'bonuses:adjust',
    params: IdParams,
    body: CustomerBonusBody,
    response: CustomerOneResponse,
    run: async ({ tx, params, body, now, actor }) => {
      const r = await adjustBonuses(tx, {
        customerId: params.id,
        amountKopecks: body.amount_kopecks,
        now,
        key: actor.requestId,
      });
      if (!r.ok) return refusal(r);
      return {
        ok: true,
        body: await one(params.id, tx),
        audit: {
          action: 'customer.bonuses',
          entityType: 'customer',
          entityId: params.id,
          before: { bonus_kopecks: r.beforeKopecks },
          after: { bonus_kopecks: r.afterKopecks, amount_kopecks: body.amount_kopecks },
          reason: body.reason,
        },
      };
    },
  });

  for (const blocked of [true, false]) {
    adminChange(app, deps, {
      method: 'POST',
      url: blocked ? '/customers/:id/block' : '/customers/:id/unblock',
      summary: blocked
        ? 'Blocks a customer: every session ends, logins are refused'
        : 'Unblocks a customer: they may log in again',
      permission: 'customers:block',
      params: IdParams,
      body: blocked ? CustomerBlockBody : CustomerUnblockBody,
      response: CustomerOneResponse,
      run: async ({ tx, params, body, now }) => {
        const reason = (body as { reason?: string }).reason ?? null;
        const r = await setCustomerBlocked(tx, { customerId: params.id, blocked, reason, now });
        if (!r.ok) return refusal(r);
        return {
          ok: true,
          body: await one(params.id, tx),
          audit: {
            action: blocked ? 'customer.block' : 'customer.unblock',
            entityType: 'customer',
            entityId: params.id,
            before: r.before,
            after: r.after,
            reason,
          },
        };
      },
    });
  }
}
