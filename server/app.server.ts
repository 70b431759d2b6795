import crypto from 'node:crypto';
import path from 'node:path';
import zlib from 'node:zlib';
import fs from 'node:fs';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import fastifyStatic, { type FastifyStaticOptions } from '@fastify/static';
import fastifyCompress from '@fastify/compress';
import type { ServerBuild } from 'react-router';
import type { DatabaseHandle } from '~/db/client.server';
import { anonymousLimits, offlinePaymentProviders, offlineServices, paymentsSimulated, type Env } from './env.server';
import { findInjection, INJECTION_BLOCKED_MESSAGE } from '~/core/security-filter';
import { isPagePath, pageRedirect } from '~/core/redirects';
import { redactUrl } from '~/core/log-redaction';
import { productApi } from '~/api/plugin.server';
import { ensureContentSeeded } from '~/api/content/store.server';
import { exchangeRoutes, type ExchangeOptions } from '~/api/exchange/routes.server';
import { createSmsGateway } from '~/integrations/sms/index.server';
import { createMailSender, MAIL_OUTBOX_DIR } from '~/integrations/mail/index.server';
import { createCaptchaVerifier } from '~/integrations/captcha/index.server';
import { createAddressSuggestions } from '~/integrations/dadata/index.server';
import { createCdek } from '~/integrations/cdek/index.server';
import { CLOUDPAYMENTS_SECRET_FILE, createCardPayments } from '~/integrations/cloudpayments/index.server';
import { createDolyami } from '~/integrations/dolyami/index.server';
import { createYandexSplit } from '~/integrations/yandex-split/index.server';
import { DOLYAMI_OFFLINE_PAGE, SPLIT_OFFLINE_PAGE } from '~/api/payments/instalments.routes.server';
import { sameSecret } from '~/api/staff/routes.server';
import { startJobWorker } from '~/models/jobs.server';
import { recordedMail, recordedSms } from '~/models/sent-messages.server';
import { orderJobHandlers } from '~/models/order-jobs.server';
import { certificateJobHandlers } from '~/models/certificate-issue.server';
import { returnRefundJobHandlers } from '~/models/refund-jobs.server';
import { maintenanceJobHandlers } from '~/models/maintenance.server';
import { LOYALTY_DAILY_JOB, loyaltyJobHandlers } from '~/models/loyalty-jobs.server';
import { resolveAuthSecret, resolveKeptSecret, resolveStaffToken } from './secrets.server';
import { createMediaStore, mediaRoutes } from './media.server';
import { createReviewPhotoStore } from './review-photos.server';
import { createProductPhotoStore } from './product-photos.server';
import { imageRoutes } from './images.server';
import { createFeedService, feedRoutes, type FeedService } from './feeds.server';
import { createReactRouterHandler } from './react-router.server';
import { createActionGuard } from './action-guard.server';
import { adminAppRoutes } from './admin-app.server';
import { createInProcessFetch } from './in-process-fetch.server';
import { lazySchemaCompilers } from './schema-compilers.server';
import { createPageCache, readPageVersion } from './page-cache.server';
import { currentDataVersion } from '~/api/meta/data-version.server';
import { CONTENT_DIR } from '~/api/content/store.server';
import { ApiClient } from '~/shared/api-client';
import type { ShopLoadContext } from '~/shared/context';

export interface ServerOptions {
  env: Env;
  database: DatabaseHandle;
  /** The built storefront; without it the process serves only the API (API tests). */
  build?: ServerBuild | null;
  clientDir?: string;
  /** The back office's clock (staff sessions, TOTP, login caps); tests pass one they move. */
  clock?: () => Date;
  /** The clock of the anonymous rate windows (api/plugin.server.ts ApiDeps.rateClock): tests only. */
  rateClock?: () => Date;
  /** The back office's build (build/admin), served at /admin/; without it /admin is the storefront's 404. */
  adminDir?: string | null;
}

/** SPEC §5's last rule on the raw address: true after answering 403 with SPEC §8's text. */
function blockInjection(req: FastifyRequest, reply: FastifyReply): boolean {
  const found = findInjection(req.url);
  if (!found) return false;
  req.log.warn({ url: req.url.slice(0, 500), found }, 'blocked suspicious request');
  void reply
    .code(403)
    .type('text/plain; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(INJECTION_BLOCKED_MESSAGE);
  return true;
}

type Services = ReturnType<typeof createServices>;

/**
 * The server in named steps: Fastify and its address hooks; compression; the outside services
 * and what of them runs on stand-ins; the job worker; /healthz; the product API; media, images,
 * feeds and the back office's app; the storefront (files and pages); closing.
 */
export async function buildServer({
  env,
  database,
  build,
  clientDir,
  clock,
  rateClock,
  adminDir,
}: ServerOptions): Promise<FastifyInstance> {
  const app = createFastify(env);
  addAddressHooks(app, env);
  await registerCompression(app);
  const services = createServices(app, env, database);
  const offline = announceOfflineServices(app, env);
  const jobWorker = startJobs(app, env, database, services);
  addHealthRoute(app, { env, database, staffToken: services.staffToken, offline });
  // Product feeds (docs/feeds.md): built to files per catalogue version, streamed to each request.
  const feeds = createFeedService({ db: database.db, dataDir: env.dataDir, siteUrl: env.siteUrl, log: app.log });
  if (env.apiPrefix)
    await registerProductApi(app, {
      prefix: env.apiPrefix,
      env,
      database,
      services,
      jobWorker,
      feeds,
      clock,
      rateClock,
    });
  // The 1C exchange at the path 1C-Bitrix used, so 1C moved from a Bitrix shop needs only the new host.
  await app.register(exchangeRoutes, {
    db: database.db,
    sms: services.sms,
    siteUrl: env.siteUrl,
    exchange: exchangeOptions(env, database),
    url: '/bitrix/admin/1c_exchange.php',
    hidden: true,
  });
  await registerFiles(app, { env, database, feeds, adminDir });
  // The information pages and blog articles go from content/ into an empty table before the first
  // request: seeded on a first read instead, they changed the data version under that request's
  // page, and the page cache kept it under a version already gone.
  await ensureContentSeeded(database.db);
  app.decorate('pageCache', null);
  if (build) await registerStorefront(app, { env, database, build, clientDir });
  app.addHook('onClose', async () => {
    await jobWorker.stop();
    await database.close();
  });
  return app;
}

function createFastify(env: Env): FastifyInstance {
  return Fastify({
    schemaController: { compilersFactory: lazySchemaCompilers() },
    logger: {
      level: env.LOG_LEVEL,
      // Names and phones of guest forms travel in query strings: the log never keeps them.
      serializers: {
        req: (req: FastifyRequest) => ({
          method: req.method,
          url: redactUrl(req.url),
          host: req.host,
          remoteAddress: req.ip,
        }),
      },
    },
    trustProxy: env.TRUST_PROXY,
    // Random request ids: the audit log's request_id names one request across restarts and processes.
    genReqId: () => crypto.randomUUID(),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    bodyLimit: 256 * 1024,
    // SIGTERM: idle keep-alive sockets close at once, requests in flight finish.
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    // An address the router cannot decode ('%' alone, overlong UTF-8): the router answers before
    // any hook, so the security filter reads the raw address here first; otherwise the API's
    // error shape, in Russian.
    frameworkErrors: (_error, req, reply: FastifyReply) => {
      if (blockInjection(req, reply)) return;
      void reply.code(400).header('cache-control', 'no-store').send({ error: 'Неверный адрес запроса' });
    },
  });
}

/** What every request goes through: the security filter, page address redirects, and the security headers of every answer. */
function addAddressHooks(app: FastifyInstance, env: Env): void {
  // 1. The security filter runs before anything else, for every request (SPEC §5, §8).
  app.addHook('onRequest', async (req, reply) => {
    if (blockInjection(req, reply)) return reply;
  });

  // 2. Page addresses: lower case, trailing slash, legacy /products/ (SPEC §2), one hop.
  app.addHook('onRequest', async (req, reply) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return;
    const q = req.url.indexOf('?');
    const pathname = q === -1 ? req.url : req.url.slice(0, q);
    if (!isPagePath(pathname, env.apiPrefix)) return;
    const target = pageRedirect(pathname, q === -1 ? '' : req.url.slice(q));
    if (target) return reply.redirect(target.location, target.status);
  });

  app.addHook('onSend', async (req, reply) => {
    // Shutting down: the client must not keep this connection for another request.
    if (!app.server.listening) reply.header('connection', 'close');
    reply.header('x-content-type-options', 'nosniff');
    // Framing and referrer rules are a document's; a hashed script, font or image needs neither
    // (its imports are same-origin, and the browser's default policy is this one). A page under
    // /assets/ (the 404 document) keeps them.
    if (req.url.startsWith('/assets/') && !String(reply.getHeader('content-type') ?? '').startsWith('text/html'))
      return;
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    reply.header('x-frame-options', 'SAMEORIGIN');
  });
}

async function registerCompression(app: FastifyInstance): Promise<void> {
  // Brotli's default quality (11) costs tens of milliseconds per page; 5 compresses nearly as
  // well at a fraction of the time for responses made per request.
  await app.register(fastifyCompress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } },
  });
}

/** Outside services (DESIGN.md Integrations): offline stand-ins unless configured; the secrets. */
function createServices(app: FastifyInstance, env: Env, database: DatabaseHandle) {
  const outbox = (name: string) => ({ outbox: path.join(env.dataDir, 'outbox', name) });
  // Both through the send path's record (models/sent-messages.server.ts): a job's messages go once.
  const sms = recordedSms(database.db, createSmsGateway(env, { dataDir: env.dataDir, log: app.log }));
  if (sms.kind === 'offline') app.log.info(outbox('sms.jsonl'), 'SMS: offline outbox');
  const mail = recordedMail(database.db, createMailSender(env, { dataDir: env.dataDir, log: app.log }));
  if (mail.kind === 'offline') app.log.info(outbox(MAIL_OUTBOX_DIR), 'Mail: offline outbox');
  const captcha = createCaptchaVerifier(env, { log: app.log });
  const addressSuggestions = createAddressSuggestions(env, { log: app.log });
  const cdek = createCdek(env, { dataDir: env.dataDir, log: app.log });
  if (cdek.kind === 'offline') app.log.info(outbox('cdek.jsonl'), 'CDEK: offline stand-in');
  const payments = createCardPayments(env, {
    dataDir: env.dataDir,
    log: app.log,
    offlineSecret: () =>
      resolveKeptSecret({ value: env.CLOUDPAYMENTS_API_SECRET, dataDir: env.dataDir, file: CLOUDPAYMENTS_SECRET_FILE }),
  });
  if (payments.offline) app.log.info(outbox('cloudpayments.jsonl'), 'CloudPayments: offline stand-in');
  // Pay in parts: the stand-ins' pages are served by the API, so their links start at its base.
  const apiBase = env.API_BASE_URL.replace(/\/+$/, '');
  const instalments = {
    dolyami: createDolyami(env, { dataDir: env.dataDir, pagePath: `${apiBase}${DOLYAMI_OFFLINE_PAGE}`, log: app.log }),
    split: createYandexSplit(env, { pagePath: `${apiBase}${SPLIT_OFFLINE_PAGE}`, log: app.log }),
  };
  if (instalments.dolyami.offline || instalments.split.offline)
    app.log.info('Dolyami / Yandex Split: offline stand-ins where not configured');
  return {
    sms,
    mail,
    captcha,
    addressSuggestions,
    cdek,
    payments,
    instalments,
    apiBase,
    staffToken: resolveStaffToken(env),
    authSecret: resolveAuthSecret(env),
  };
}

/**
 * What runs on a stand-in, said once at start: in production loudly (start-up refused the
 * payment ones already unless ALLOW_OFFLINE_PAYMENTS=true), and in /healthz's details for staff.
 */
function announceOfflineServices(app: FastifyInstance, env: Env): { payments: string[]; services: string[] } {
  const offline = { payments: offlinePaymentProviders(env), services: offlineServices(env) };
  if (offline.payments.length > 0 && env.NODE_ENV === 'production')
    app.log.warn(
      { offline: offline.payments, ALLOW_OFFLINE_PAYMENTS: env.ALLOW_OFFLINE_PAYMENTS },
      'PAYMENTS ARE SIMULATED: card / instalment payments run on offline stand-ins, nobody is charged (a demo: not for a real shop)',
    );
  if (offline.services.length > 0 && env.NODE_ENV === 'production')
    app.log.warn(
      { offline: offline.services },
      'outside services on offline stand-ins: their messages, captcha checks and deliveries reach nobody',
    );
  return offline;
}

/**
 * Work after a commit (order notices, CDEK registration): DESIGN.md's job table, shared by
 * every process on the database; an order nudges it so its SMS goes out at once.
 */
function startJobs(app: FastifyInstance, env: Env, database: DatabaseHandle, services: Services) {
  const { sms, mail, cdek, payments, instalments } = services;
  const db = database.db;
  const log = app.log;
  return startJobWorker({
    db,
    log,
    handlers: {
      ...orderJobHandlers({
        db,
        sms,
        mail,
        cdek,
        fromCityCode: env.CDEK_FROM_CITY_CODE,
        siteUrl: env.siteUrl,
        payments: payments.client,
        instalments,
        fastOrderHoldHours: env.FAST_ORDER_HOLD_HOURS,
        log,
      }),
      ...returnRefundJobHandlers({ db, sms, mail, siteUrl: env.siteUrl, payments: payments.client, instalments, log }),
      ...maintenanceJobHandlers({ db, log }),
      ...certificateJobHandlers({ db, mail, siteUrl: env.siteUrl, log }),
      ...loyaltyJobHandlers({ db, log }),
    },
    // Expired login codes, sessions, rate-limit windows and old jobs go once an hour; birthday
    // bonuses and expired bonuses too (a birthday window opens at Moscow midnight).
    periodic: [
      { kind: 'maintenance.prune', everyMs: 3_600_000 },
      { kind: LOYALTY_DAILY_JOB, everyMs: 3_600_000 },
    ],
  });
}

/**
 * Health: public answers say ok or not; with the staff token (Authorization: Bearer) the
 * details too, among them which providers are offline stand-ins.
 */
function addHealthRoute(
  app: FastifyInstance,
  {
    env,
    database,
    staffToken,
    offline,
  }: { env: Env; database: DatabaseHandle; staffToken: string; offline: { payments: string[]; services: string[] } },
): void {
  app.get('/healthz', async (req, reply) => {
    const header = req.headers.authorization ?? '';
    const staff = header.startsWith('Bearer ') && sameSecret(header.slice('Bearer '.length), staffToken);
    const details = staff
      ? {
          details: {
            nodeEnv: env.NODE_ENV,
            paymentsSimulated: offline.payments.length > 0,
            offline: [...offline.payments, ...offline.services],
          },
        }
      : {};
    try {
      await database.ping();
      return reply.header('cache-control', 'no-store').send({ status: 'ok', database: database.kind, ...details });
    } catch (err) {
      app.log.error({ err }, 'health check: database unreachable');
      return reply
        .code(503)
        .header('cache-control', 'no-store')
        .send({ status: 'unavailable', database: database.kind, ...details });
    }
  });
}

/**
 * Items one 1C mode=import call applies, by database. On PGlite the step's statements run on the
 * server's thread and hold its one connection, so a guest waits for the step in progress: 500
 * keeps a step near 50 ms at 100 000 offers (bench:1c). PostgreSQL serves guests beside a step.
 */
export const DEFAULT_EXCHANGE_IMPORT_STEP = { pglite: 500, postgres: 1000 } as const;

/** The 1C exchange's folder and limits (docs/exchange-1c.md). */
function exchangeOptions(env: Env, database: DatabaseHandle): ExchangeOptions {
  return {
    root: path.join(env.dataDir, 'exchange'),
    fileLimit: env.EXCHANGE_FILE_LIMIT,
    maxFileBytes: env.EXCHANGE_MAX_FILE_MB * 1024 * 1024,
    stepItems: env.EXCHANGE_IMPORT_STEP ?? DEFAULT_EXCHANGE_IMPORT_STEP[database.kind],
    zip: env.EXCHANGE_ZIP === 'yes',
    unzip: { maxBytes: env.EXCHANGE_MAX_UNZIP_MB * 1024 * 1024, maxEntries: 200_000 },
    mediaRoot: path.join(env.dataDir, 'media'),
    maxPictureBytes: env.EXCHANGE_MAX_PICTURE_MB * 1024 * 1024,
  };
}

/** The product API (api/plugin.server.ts) under env.apiPrefix. */
async function registerProductApi(
  app: FastifyInstance,
  {
    prefix,
    env,
    database,
    services,
    jobWorker,
    feeds,
    clock,
    rateClock,
  }: {
    prefix: string;
    env: Env;
    database: DatabaseHandle;
    services: Services;
    jobWorker: ReturnType<typeof startJobWorker>;
    feeds: FeedService;
    clock?: (() => Date) | undefined;
    rateClock?: (() => Date) | undefined;
  },
): Promise<void> {
  const { apiBase, ...apiServices } = services;
  await app.register(productApi, {
    prefix,
    db: database.db,
    ...apiServices,
    cdekFromCityCode: env.CDEK_FROM_CITY_CODE,
    mapTiles: env.mapTiles,
    siteUrl: env.siteUrl,
    publicApiUrl: apiBase.startsWith('/') ? `${env.siteUrl}${apiBase}` : apiBase,
    onOrderPlaced: () => jobWorker.nudge(),
    runJobsNow: (kind, bringForward) => jobWorker.runNow(kind, bringForward),
    feeds,
    reviewPhotos: createReviewPhotoStore({ mediaRoot: path.join(env.dataDir, 'media') }),
    productPhotos: createProductPhotoStore({ mediaRoot: path.join(env.dataDir, 'media') }),
    exchange: exchangeOptions(env, database),
    limits: anonymousLimits(env),
    ...(clock ? { clock } : {}),
    ...(rateClock ? { rateClock } : {}),
  });
}

/** Media, resized images, feed files, and the back office's app (server/admin-app.server.ts: its API is the product API's /admin). */
async function registerFiles(
  app: FastifyInstance,
  {
    env,
    database,
    feeds,
    adminDir,
  }: { env: Env; database: DatabaseHandle; feeds: FeedService; adminDir?: string | null | undefined },
): Promise<void> {
  const store = createMediaStore({ db: database.db, root: path.join(env.dataDir, 'media') });
  await app.register(mediaRoutes, { store });
  await app.register(imageRoutes, { store, cacheDir: path.join(env.dataDir, 'cache', 'img') });
  await app.register(feedRoutes, { service: feeds });
  if (adminDir && env.apiPrefix) await app.register(adminAppRoutes, { dir: adminDir, apiBase: env.apiPrefix });
}

/** The storefront: its built files, then its pages (React Router) behind the guest page cache. */
async function registerStorefront(
  app: FastifyInstance,
  {
    env,
    database,
    build,
    clientDir,
  }: { env: Env; database: DatabaseHandle; build: ServerBuild; clientDir?: string | undefined },
): Promise<void> {
  const dir = clientDir ?? path.resolve('build/client');
  if (fs.existsSync(dir)) await registerBuiltFiles(app, dir);
  const handler = createReactRouterHandler(build, env.NODE_ENV, loadContextOf(app, env, database));
  // Guest page cache (server/page-cache.server.ts, README "Guest page cache"): guests' pages are
  // answered from memory in onRequest, before React renders; PAGE_CACHE=off leaves it out.
  const pageCache =
    env.PAGE_CACHE === 'on'
      ? createPageCache({
          maxBytes: env.PAGE_CACHE_MAX_MB * 1024 * 1024,
          ttlMs: env.PAGE_CACHE_TTL_SECONDS * 1000,
          readVersion: () => readPageVersion(database.db, CONTENT_DIR),
          log: app.log,
        })
      : null;
  app.pageCache = pageCache;
  await app.register(async (pages) => {
    // Pages read their own bodies (form actions): hand them the raw bytes.
    pages.removeAllContentTypeParsers();
    pages.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    if (pageCache) {
      pages.addHook('onRequest', pageCache.onRequest);
      // Runs before compression (a route hook of @fastify/compress): it stores and sends the
      // bytes it encoded itself, and compression leaves an encoded answer alone.
      pages.addHook('onSend', pageCache.onSend);
      pages.addHook('onResponse', pageCache.onDone);
      pages.addHook('onRequestAbort', pageCache.onDone);
    }
    // Actions: only POSTed forms from this site reach a route (server/action-guard.server.ts).
    pages.addHook('preHandler', createActionGuard(build, { siteUrl: env.siteUrl }));
    pages.route({ method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'], url: '/*', handler });
  });
}

/** The built client files: hashed assets for a year, other public files for an hour. */
async function registerBuiltFiles(app: FastifyInstance, dir: string): Promise<void> {
  // What both mounts share: files listed at start, `npm run build`'s brotli-11 and gzip-9
  // siblings sent to the browsers that take them, and one Cache-Control.
  const files = (root: string, prefix: string, cacheControl: string): FastifyStaticOptions => ({
    root,
    prefix,
    wildcard: false,
    index: false,
    preCompressed: true,
    cacheControl: false,
    setHeaders(res, filePath) {
      res.setHeader('cache-control', cacheControl);
      // A precompressed sibling is being sent: the body depends on Accept-Encoding.
      if (/\.(?:br|gz)$/.test(filePath)) res.setHeader('vary', 'Accept-Encoding');
    },
  });
  // Hashed build assets never change: cached for a year, never revalidated, so they carry no
  // validators (ETag, Last-Modified) nor ranges, which were ~100 bytes of every script's,
  // font's and image's headers.
  await app.register(fastifyStatic, {
    ...files(path.join(dir, 'assets'), '/assets/', 'public, max-age=31536000, immutable'),
    etag: false,
    lastModified: false,
    acceptRanges: false,
  });
  // Other public files (favicon, robots' neighbours) may change: an hour, then revalidated.
  await app.register(fastifyStatic, {
    ...files(dir, '/', 'public, max-age=3600'),
    globIgnore: ['assets/**'],
    decorateReply: false,
  });
}

/** Each page request's load context: the API client (in process when the API is mounted here), its log and the public settings. */
function loadContextOf(
  app: FastifyInstance,
  env: Env,
  database: DatabaseHandle,
): (req: FastifyRequest) => ShopLoadContext {
  const apiBase = env.apiPrefix ? `http://in-process${env.apiPrefix}` : env.API_BASE_URL;
  // Public answers are reused while the data version stands (server/in-process-fetch.server.ts).
  const inProcess = env.apiPrefix
    ? createInProcessFetch(app, { version: () => currentDataVersion(database.db) })
    : null;
  const publicEnv = {
    API_BASE_URL: env.API_BASE_URL,
    PUBLIC_CHAT_URL: env.PUBLIC_CHAT_URL,
    PUBLIC_METRIKA_ID: env.PUBLIC_METRIKA_ID,
    // Site keys only: the secrets never leave the server.
    PUBLIC_CAPTCHA_PROVIDER: env.CAPTCHA_PROVIDER,
    PUBLIC_RECAPTCHA_SITE_KEY: env.PUBLIC_RECAPTCHA_SITE_KEY,
    PUBLIC_SMARTCAPTCHA_SITE_KEY: env.PUBLIC_SMARTCAPTCHA_SITE_KEY,
    PAYMENTS_SIMULATED: paymentsSimulated(env),
    PUBLIC_MAP_TILES: env.mapTiles,
  };
  return (req) => ({
    api: new ApiClient({
      baseUrl: apiBase,
      fetch: inProcess?.fetch ?? fetch,
      ...(inProcess ? { keptValue: inProcess.keptValue } : {}),
      // SPEC §7: requests carry the shopper's IP.
      headers: { 'x-forwarded-for': req.ip, 'x-real-ip': req.ip },
    }),
    log: req.log,
    siteUrl: env.siteUrl,
    publicEnv,
  });
}
