import type { FastifyInstance } from 'fastify';
import type { Database } from '~/db/client.server';
import type { SmsGateway } from '~/integrations/sms/sms';
import type { MailSender } from '~/integrations/mail/mail';
import type { CaptchaVerifier } from '~/integrations/captcha/captcha';
import type { AddressSuggestions } from '~/integrations/dadata/dadata';
import type { CdekClient } from '~/integrations/cdek/cdek';
import type { MapTiles } from '~/core/map-tiles';
import type { CardPayments } from '~/integrations/cloudpayments/index.server';
import type { InstalmentServices } from '~/models/instalments.server';
import type { BringForward, RunNowResult } from '~/models/jobs.server';
import type { FeedBuilder } from './staff/feeds.routes.server';
import { instalmentRoutes } from './payments/instalments.routes.server';
import { defineRoute } from '~/api/route.server';
import { buildOpenApi } from './openapi';
import { parseNestedForm } from './form';
import { NOT_FOUND_BODY, SERVER_ERROR_TEXT } from './http.server';
import { apiFallback } from './fallback.server';
import { catalogRoutes } from './catalog/routes.server';
import { certificateRoutes } from './catalog/certificate.routes.server';
import { contentRoutes } from './content/routes.server';
import { metaRoutes } from './meta/routes.server';
import { searchRoutes } from './search/routes.server';
import { basketRoutes } from './basket/routes.server';
import { staffRoutes } from './staff/routes.server';
import { dadataRoutes } from './dadata/routes.server';
import { cdekRoutes } from './cdek/routes.server';
import { checkoutRoutes } from './checkout/routes.server';
import { newsletterRoutes } from './newsletter/routes.server';
import { accountRoutes } from './account/routes.server';
import { emailLoginRoutes } from './account/email.routes.server';
import { personalRoutes } from './account/personal.routes.server';
import { loyaltyRoutes } from './account/loyalty.routes.server';
import { wishlistRoutes } from './wishlist/routes.server';
import { paymentRoutes } from './payments/routes.server';
import { DEFAULT_ANONYMOUS_LIMITS, type AnonymousLimits } from '~/core/anonymous-limits';
import { totpKeyFrom } from '~/models/staff-secrets.server';
import { adminApi } from './admin/plugin.server';
import { reviewRoutes } from './reviews/routes.server';
import type { ReviewPhotoStore } from './reviews/photos';
import type { ProductPhotoStore } from './admin/product-photos';
import { exchangeRoutes, type ExchangeOptions } from './exchange/routes.server';

export interface ApiDeps {
  db: Database;
  sms: SmsGateway;
  mail: MailSender;
  captcha: CaptchaVerifier;
  /** Address suggestions (DaData or its offline stand-in) behind POST /api/dadata/. */
  addressSuggestions: AddressSuggestions;
  /** CDEK (or its offline stand-in): pickup points, tariffs, orders. */
  cdek: CdekClient;
  /** The pickup map page's tiles (PUBLIC_MAP_TILE_*); null: the list alone. */
  mapTiles?: MapTiles | null;
  /** The CDEK city code parcels leave from (CDEK_FROM_CITY_CODE, the Moscow warehouse). */
  cdekFromCityCode: number;
  /** The staff secret of the staff-only paths (server/staff-token.server.ts). */
  staffToken: string;
  /** Signs session tokens and keys login-code hashes (server/secrets.server.ts). */
  authSecret: string;
  /** The shop's public origin, for links in messages. */
  siteUrl: string;
  /** Card payment online: CloudPayments (or its offline stand-in), its keys, widget script and hold time. */
  payments: CardPayments;
  /** Pay in parts: Dolyami and Yandex Split (or their stand-ins); without them the methods cannot be paid. */
  instalments?: InstalmentServices;
  /** The API's public base URL, where providers call back (default: siteUrl + the prefix). */
  publicApiUrl?: string;
  /** Called when an order is written, so its jobs (notices, CDEK) run at once rather than at the next poll. */
  onOrderPlaced?: (orderId: number) => void;
  /** `npm run jobs -- run [kind]`: brings time-based jobs forward and runs them (the server's job worker). */
  runJobsNow?: (kind?: string, bringForward?: BringForward) => Promise<RunNowResult>;
  /** The server's product feed builder, for the staff API's 'build' (server/feeds.server.ts). */
  feeds?: FeedBuilder;
  /** Review photos through the image pipeline (server/review-photos.server.ts); without it reviews take no photos. */
  reviewPhotos?: ReviewPhotoStore;
  /** Product photos uploaded in the back office (server/product-photos.server.ts); without it uploads are refused. */
  productPhotos?: ProductPhotoStore;
  /** The 1C exchange (docs/exchange-1c.md): its folder and limits; without it /1c/exchange is not served. */
  exchange?: ExchangeOptions;
  /** Caps on anonymous actions (core/anonymous-limits.ts); the defaults unless the environment sets them. */
  limits?: AnonymousLimits;
  /** The back office's clock (staff sessions' timeouts, TOTP steps, login caps); tests move it. */
  clock?: () => Date;
  /**
   * The clock of the anonymous rate windows (address suggestions per minute, newsletter
   * subscriptions per hour): tests hold it inside one window instead of waiting on the wall
   * clock. Only tests pass it (server option, no environment variable); otherwise the real time.
   */
  rateClock?: () => Date;
}

// Paths below are relative to the API base (SPEC §7); the server mounts this under its prefix.
// Each resource registers its routes; each route validates its input (http.server.ts), calls
// data functions (models/) and maps rows to the contract's shapes.
export async function productApi(
  app: FastifyInstance,
  {
    db,
    sms,
    mail,
    captcha,
    addressSuggestions,
    cdek,
    cdekFromCityCode,
    mapTiles = null,
    authSecret,
    staffToken,
    siteUrl,
    payments,
    instalments,
    publicApiUrl,
    onOrderPlaced,
    runJobsNow,
    feeds,
    reviewPhotos,
    productPhotos,
    exchange,
    limits = DEFAULT_ANONYMOUS_LIMITS,
    clock = () => new Date(),
    rateClock = () => new Date(),
  }: ApiDeps,
): Promise<void> {
  // SPEC §7 bodies are form-encoded with a[b] nesting.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 64 * 1024 },
    (_req, body, done) => {
      done(null, parseNestedForm(body as string));
    },
  );

  // Watches every route registered below; its own catch-all goes in last (fallback.server.ts).
  const fallback = apiFallback(app);

  // Set before the routes register: each resource's plugin takes these handlers as it is created.
  app.setNotFoundHandler((_req, reply) => reply.code(404).send(NOT_FOUND_BODY));
  app.setErrorHandler((err: Error & { statusCode?: number }, req, reply) => {
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) req.log.error({ err }, 'api error');
    // Fastify's own 4xx (a body too large, bad JSON) speak English: shoppers get Russian.
    const text =
      status === 500
        ? SERVER_ERROR_TEXT
        : status === 413
          ? 'Слишком большой запрос'
          : status === 404
            ? NOT_FOUND_BODY.error
            : 'Неверный запрос';
    return reply.code(status).send({ error: text });
  });

  await app.register(metaRoutes, { db });
  await app.register(catalogRoutes, { db });
  await app.register(certificateRoutes, { db, authSecret });
  await app.register(searchRoutes, { db });
  await app.register(contentRoutes, { db });
  await app.register(basketRoutes, { db, authSecret, captcha, limits });
  await app.register(staffRoutes, {
    db,
    sms,
    staffToken,
    siteUrl,
    now: clock,
    ...(runJobsNow ? { runJobsNow } : {}),
    ...(feeds ? { feeds } : {}),
  });
  // The back office's API (docs/back-office.md): staff sessions, roles, the audit log.
  await app.register(adminApi, {
    prefix: '/admin',
    db,
    siteUrl,
    totpKey: totpKeyFrom(authSecret),
    now: clock,
    sms,
    ...(productPhotos ? { productPhotos } : {}),
  });
  await app.register(dadataRoutes, { db, suggestions: addressSuggestions, now: rateClock });
  await app.register(cdekRoutes, { cdek, fromCityCode: cdekFromCityCode, db, limits, mapTiles });
  await app.register(checkoutRoutes, {
    db,
    authSecret,
    cdek,
    fromCityCode: cdekFromCityCode,
    log: app.log,
    limits,
    payHoldMinutes: payments.holdMinutes,
    ...(onOrderPlaced ? { onOrderPlaced } : {}),
  });
  await app.register(paymentRoutes, {
    db,
    authSecret,
    payments,
    limits,
    ...(onOrderPlaced ? { onOrderPlaced } : {}),
    ...(instalments ? { instalments } : {}),
  });
  if (instalments)
    await app.register(instalmentRoutes, {
      db,
      authSecret,
      services: instalments,
      siteUrl,
      publicApiUrl: publicApiUrl ?? `${siteUrl}${app.prefix}`,
      ...(onOrderPlaced ? { onOrderPlaced } : {}),
    });
  await app.register(newsletterRoutes, { db, mail, siteUrl, now: rateClock });
  await app.register(accountRoutes, { db, sms, captcha, authSecret });
  await app.register(emailLoginRoutes, { db, mail, captcha, authSecret, siteUrl });
  await app.register(personalRoutes, { db, authSecret, suggestions: addressSuggestions });
  await app.register(loyaltyRoutes, { db, authSecret });
  await app.register(wishlistRoutes, { db, authSecret });
  await app.register(reviewRoutes, { db, authSecret, siteUrl, photos: reviewPhotos, now: clock });
  // The 1C exchange (CommerceML 2); also at the legacy Bitrix path, registered by the server at the root.
  if (exchange) await app.register(exchangeRoutes, { db, sms, siteUrl, exchange, url: '/1c/exchange' });

  let openApi: Record<string, unknown> | null = null;
  defineRoute(app, {
    method: 'GET',
    url: '/openapi.json',
    summary: 'This document (OpenAPI 3.0), made from the routes and the zod schemas they validate with',
    responses: { 200: { description: 'The OpenAPI document' } },
    handler: async (_input, _req, reply) => {
      openApi ??= buildOpenApi(app.prefix || '/');
      reply.header('cache-control', 'public, max-age=300');
      return openApi;
    },
  });

  fallback.register();
}
