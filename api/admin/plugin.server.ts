import type { FastifyInstance } from 'fastify';
import { isAdminOrigin } from '~/core/staff-auth';
import type { AdminError } from '~/shared/admin-contract';
import type { AdminDeps } from './context.server';
import { adminAuthRoutes } from './auth.routes.server';
import { adminStaffRoutes } from './staff.routes.server';
import { adminAuditRoutes } from './audit.routes.server';
import { adminOrderRoutes } from './orders.routes.server';
import { adminStockRoutes } from './stock.routes.server';
import { adminReturnRoutes } from './returns.routes.server';
import { adminCustomerRoutes } from './customers.routes.server';
import { adminReviewRoutes } from './reviews.routes.server';
import { adminFeedRoutes } from './feeds.routes.server';
import { adminExchangeRoutes } from './exchange.routes.server';

// The admin API (issue #29, docs/back-office.md), mounted at `<API prefix>/admin`. JSON only;
// every answer `Cache-Control: no-store` and `X-Robots-Tag: noindex`; a state-changing call must
// come from the shop's own origin (core/staff-auth.ts isAdminOrigin) with a JSON body, so a
// cross-site form can neither send it nor (SameSite=Strict aside) ride on the staff cookie.
//
// New screens add a routes file here, each route through adminRead / adminChange
// (api/admin/action.server.ts).

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

export async function adminApi(app: FastifyInstance, { db, siteUrl, totpKey, now, sms }: AdminDeps): Promise<void> {
  // Only the dependencies: the options object Fastify hands in also carries this plugin's prefix.
  const deps: AdminDeps = { db, siteUrl, totpKey, now, sms };
  const siteOrigin = (() => {
    try {
      return new URL(deps.siteUrl).origin;
    } catch {
      return null;
    }
  })();
  app.decorateRequest('staffSession', null);

  app.addHook('onRequest', async (req, reply) => {
    void reply.header('cache-control', 'no-store').header('x-robots-tag', 'noindex, nofollow');
    if (SAFE.has(req.method)) return;
    const origin = typeof req.headers.origin === 'string' ? req.headers.origin : undefined;
    const fetchSite = typeof req.headers['sec-fetch-site'] === 'string' ? req.headers['sec-fetch-site'] : undefined;
    if (!isAdminOrigin({ origin, fetchSite, requestOrigin: `${req.protocol}://${req.host}`, siteOrigin })) {
      req.log.warn(
        { admin: 'origin', origin: origin ?? null, fetchSite: fetchSite ?? null, method: req.method, url: req.url },
        'admin: cross-site call refused',
      );
      return reply.code(403).send({ error: 'Запрос с чужого сайта отклонён' } satisfies AdminError);
    }
    const type = String(req.headers['content-type'] ?? '');
    if (!/^application\/json(\s*;|$)/i.test(type))
      return reply.code(415).send({ error: 'Нужно тело запроса в JSON' } satisfies AdminError);
  });

  await app.register(adminAuthRoutes, deps);
  await app.register(adminStaffRoutes, deps);
  await app.register(adminAuditRoutes, deps);
  await app.register(adminOrderRoutes, deps);
  await app.register(adminStockRoutes, deps);
  await app.register(adminReturnRoutes, deps);
  await app.register(adminCustomerRoutes, deps);
  await app.register(adminReviewRoutes, deps);
  await app.register(adminFeedRoutes, deps);
  await app.register(adminExchangeRoutes, deps);
}
