import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { CustomerListResponse, CustomerOneResponse } from '~/shared/admin-contract';
import { getAdminCustomer, listAdminCustomers } from '~/models/admin-customers.server';
import { notFound } from '~/api/http.server';
import { adminRead, filterValue, IdParams, listQuery } from './action.server';
import type { AdminDeps } from './context.server';

// Customers (issue #29), read only so far: search by phone, e-mail or name; one customer's
// profile with their orders, returns and bonus balance. customers:read (manager, admin).

const CustomerListQuery = listQuery(['id'], { sort: 'id', order: 'desc' }, { q: filterValue(z.string().trim().max(100)) });
const fullName = (r: { lastName: string; firstName: string; secondName: string }) => [r.lastName, r.firstName, r.secondName].filter(Boolean).join(' ');

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
        data: rows.map((r) => ({ id: r.id, phone: r.phone, email: r.email, name: fullName(r), created_at: r.createdAt.toISOString() })),
        total,
      } satisfies CustomerListResponse;
    },
  });

  adminRead(app, deps, {
    url: '/customers/:id',
    summary: 'One customer: profile, orders, returns, bonus balance',
    permission: 'customers:read',
    params: IdParams,
    response: CustomerOneResponse,
    handler: async ({ params, reply }) => {
      const c = await getAdminCustomer(db, params.id, deps.now());
      if (!c) return notFound(reply);
      return {
        data: {
          id: c.id,
          phone: c.phone,
          email: c.email,
          name: fullName(c),
          created_at: c.createdAt.toISOString(),
          bonus_kopecks: c.bonusKopecks,
          orders: c.orders.map((o) => ({ id: o.id, status: o.status, total_kopecks: o.totalKopecks, created_at: o.createdAt.toISOString() })),
          returns: c.returns.map((r) => ({ id: r.id, order_id: r.orderId, status: r.status, created_at: r.createdAt.toISOString() })),
        },
      } satisfies CustomerOneResponse;
    },
  });
}
