import type { FastifyInstance } from 'fastify';
import { isAdminOrigin } from '~/core/staff-auth';
import type { AdminError } from '~/shared/admin-contract';
import { requireStaff, type AdminDeps } from './context.server';
import { isUpload, registerMultipart, uploadBodyLimit } from './multipart.server';
import { adminAuthRoutes } from './auth.routes.server';
import { adminStaffRoutes } from './staff.routes.server';
import { adminAuditRoutes } from './audit.routes.server';
import { adminOrderRoutes } from './orders.routes.server';
import { adminStockRoutes } from './stock.routes.server';
import { adminReturnRoutes } from './returns.routes.server';
import { adminCustomerRoutes } from './customers.routes.server';
import { adminReviewRoutes } from './reviews.routes.server';
import { adminFeedRoutes } from './feeds.routes.server';
import { adminCatalogueRoutes } from './catalogue.routes.server';
import { adminCatalogueBulkRoutes } from './catalogue-bulk.routes.server';
import { adminSectionRoutes } from './sections.routes.server';
import { adminExchangeRoutes } from './exchange.routes.server';
import { adminPromotionRoutes } from './promotions.routes.server';
import { adminContentRoutes } from './content.routes.server';
import { adminSiteSettingsRoutes } from './site-settings.routes.server';

// The admin API (issue #29, docs/back-office.md), mounted at `<API prefix>/admin`. JSON only;
// every answer `Cache-Control: no-store` and `X-Robots-Tag: noindex`; a state-changing call must
// come from the shop's own origin (core/staff-auth.ts isAdminOrigin) with a JSON body, so a
// cross-site form can neither send it nor (SameSite=Strict aside) ride on the staff cookie.
//
// New screens add a routes file here, each route through adminRead / adminChange
// (api/admin/action.server.ts).

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

export async function adminApi(
  app: FastifyInstance,
  { db, siteUrl, totpKey, now, sms, productPhotos }: AdminDeps,
): Promise<void> {
  // Only the dependencies: the options object Fastify hands in also carries this plugin's prefix.
  const deps: AdminDeps = { db, siteUrl, totpKey, now, sms, ...(productPhotos ? { productPhotos } : {}) };
  const siteOrigin = (() => {
    try {
      return new URL(deps.siteUrl).origin;
    } catch {
      return null;
    }
  })();
  app.decorateRequest('staffSession', null);
  const uploadGate = requireStaff(deps, 'photos:write');

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
    if (isUpload(req.method, req.url, type)) {
      // Files: the session and permission are checked before the body is read, so no one without
      // them can make the server take in megabytes.
      await uploadGate(req, reply);
      // Returning the reply from an async hook ends the request: only when the gate answered.
      if (reply.sent) return reply;
      return;
    }
    if (!/^application\/json(\s*;|$)/i.test(type))
      return reply.code(415).send({ error: 'Нужно тело запроса в JSON' } satisfies AdminError);
  });
  registerMultipart(app, productPhotos ? uploadBodyLimit(productPhotos) : 0);
  // The upload's own refusals (too large, unreadable) in Russian; every other error goes to the API's handler.
  app.setErrorHandler((err: Error & { statusCode?: number }, req, reply) => {
    const type = String(req.headers['content-type'] ?? '');
    const status = err.statusCode ?? 500;
    if (!isUpload(req.method, req.url, type) || status < 400 || status >= 500) throw err;
    const limits = productPhotos?.limits;
    const error =
      status === 413 && limits
        ? `Слишком много за раз: не больше ${limits.maxFiles} файлов по ${limits.maxBytes / 1024 / 1024} МБ`
        : /[а-яё]/i.test(err.message)
          ? err.message
          : 'Неверный запрос';
    return reply.code(status).send({ error, field: 'files' } satisfies AdminError);
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
  await app.register(adminCatalogueRoutes, deps);
  await app.register(adminCatalogueBulkRoutes, deps);
  await app.register(adminSectionRoutes, deps);
  await app.register(adminExchangeRoutes, deps);
  await app.register(adminPromotionRoutes, deps);
  await app.register(adminContentRoutes, deps);
  await app.register(adminSiteSettingsRoutes, deps);
}
