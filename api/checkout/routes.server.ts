import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Database } from '~/db/client.server';
import { SHOP_CITIES, findShopCity, type ShopCity } from '~/core/delivery-cities';
import {
  DELIVERY_TEXT,
  deliveryMethodIds,
  deliveryMode,
  isDeliveryId,
  isInstalmentPaymentId,
  isOnlinePaymentId,
  paymentMethodIds,
  paysForCertificates,
} from '~/core/delivery';
import { instalmentSchedule, instalmentUnavailableReason, isoDay } from '~/core/instalments';
import {
  CHECKOUT_FIELDS,
  CHECKOUT_MAX_LENGTH,
  CHECKOUT_TEXT,
  addressLine,
  savedAddressCityMismatch,
  validateCheckout,
  type CheckoutField,
  type CheckoutForm,
} from '~/core/checkout';
import { formatRub, kopecksToRoubles, parseRoublesToKopecks } from '~/core/money';
import { AUTH_TEXT } from '~/core/auth';
import { normalizePromoCode, PROMO_ERROR_NOT_FOUND } from '~/core/promo';
import { CERTIFICATE_TEXT, formatCertificateCode, parseCertificateCodes } from '~/core/gift-certificates';
import { bonusCapKopecks, loyaltyLines, LOYALTY_TEXT } from '~/core/loyalty';
import { bonusBalance } from '~/models/loyalty.server';
import { listAddresses } from '~/models/addresses.server';
import {
  ApiError,
  CheckoutOrderResponse,
  CitiesResponse,
  DELIVERY_ID,
  DeliveryCostResponse,
  OrderBonusesResponse,
  OrderParamsResponse,
  type DeliveryCity,
  type DeliveryMethod,
  type PaymentMethod,
  type PickupPoint,
} from '~/shared/contract';
import type { CdekDeliveryPoint } from '~/integrations/cdek/cdek';
import { placeOrder } from '~/models/orders.server';
import { clearBasketAfterCheckout } from '~/models/customers.server';
import { enqueueGoAheadJobs, goAheadJobs } from '~/models/order-lifecycle.server';
import { holdForPayment } from '~/models/payments.server';
import {
  cityPickupPoints,
  loadCheckoutBasket,
  quoteDelivery,
  type CheckoutDeps,
  type DeliveryQuote,
} from '~/models/checkout.server';
import { sessionOfToken } from '~/api/account/session.server';
import { lastValue, SERVER_ERROR_TEXT, unauthorized } from '~/api/http.server';
import { BAD_PARAMETERS, defineRoute, NO_SESSION } from '~/api/route.server';
import { cdekIpCounter, DEFAULT_ANONYMOUS_LIMITS, LIMIT_TEXT, type AnonymousLimits } from '~/core/anonymous-limits';
import { hitRateLimit } from '~/models/rate-limit.server';

// SPEC §7 checkout calls at the paths SPEC writes: get_cities.php, get_order_params.php,
// getdeliverycost.php, order.php. The server is the judge of everything: prices, promo, gift
// covers and the delivery cost are computed here again; what the request says of them is only
// compared. Shopper mistakes answer 200 with `success: false` and Russian `data`.

export interface CheckoutRouteDeps extends CheckoutDeps {
  db: Database;
  authSecret: string;
  /** Called after an order is written: its jobs (notices, CDEK) can run now. */
  onOrderPlaced?: (orderId: number) => void;
  /** Card orders: how long an unpaid order holds its stock (PAYMENT_HOLD_MINUTES). */
  payHoldMinutes?: number;
  /** getdeliverycost.php asks CDEK for anyone: its cap per IP (CDEK_CALLS_PER_IP_MINUTE). */
  limits?: AnonymousLimits;
}

const str = (max = 20_000) => z.preprocess(lastValue, z.string().max(max).optional());

const BasketQuery = {
  ids: str(4000).describe("Basket lines 'offerId:quantity,...'"),
  preorder_ids: str(4000).describe("Pre-order lines 'offerId:quantity,...'"),
  promo_code: str(200).describe('Promo code'),
};

const OrderParamsQuery = z.object({ city: str(200).describe('City name (get_cities.php)'), ...BasketQuery });

const DeliveryCostQuery = z.object({
  city: str(200).describe('City name'),
  data: z
    .object({ city: str(200) })
    .catchall(z.unknown())
    .optional()
    .describe('SPEC §7 nests the city: data[city]'),
  'data[city]': str(200).describe('City name, as SPEC §7 nests it'),
  delivery_id: str(20).describe('Delivery method id (required)'),
  code_pvz: str(50).describe('CDEK pickup point code'),
  delivery_address: str(1000).describe('Address'),
  basketcost: str(30).describe('Basket cost the page shows (not trusted)'),
  ...BasketQuery,
});

const OrderBonusesBody = z.object({ token: str(4000).describe('Session token'), ...BasketQuery });

/** What each checkout field is (SPEC §3), for the document. */
const CHECKOUT_FIELD_TEXT: Record<CheckoutField, string> = {
  firstname: 'First name',
  lastname: 'Last name',
  secondname: 'Patronymic',
  phone: 'Phone',
  email: 'E-mail (the receipt goes there)',
  city: 'City name (get_cities.php)',
  delivery_id:
    "'1' Moscow courier, '139' CDEK pickup point, '137' CDEK courier, '200' by agreement, '300' by e-mail (electronic certificates)",
  code_pvz: 'CDEK pickup point code (139)',
  street: 'Street (or the whole foreign address for 200)',
  house: 'House',
  flat: 'Flat',
  postcode: 'Postcode',
  payment_id: "'1' on receipt (Moscow courier only), '9' card online, '10' Dolyami, '11' Yandex Split",
  comment: 'Comment',
};

/**
 * The order form is a free set (SPEC §3): the known fields are read, the rest ignored. The
 * checkout fields are taken as they come (a value that is not one string counts as empty) and
 * judged by core/checkout.ts validateCheckout, whose errors the answer carries field by field.
 */
const OrderBody = z
  .object({
    token: str(4000).describe('Session token'),
    key: z
      .preprocess((v) => {
        const s = lastValue(v);
        return typeof s === 'string' && /^[A-Za-z0-9-]{8,64}$/.test(s) ? s : undefined;
      }, z.string().optional())
      .describe('Idempotency key of this submission (8-64 of A-Z a-z 0-9 -): a repeat gets the first answer'),
    deliverycost: str(30).describe("The delivery cost the shopper saw, roubles ('' when to be confirmed)"),
    /** Gift certificate codes, separated by commas (ours). */
    certificates: str(400).describe('Gift certificate codes, separated by commas'),
    /** Bonuses to spend, whole roubles (ours; content/pages/loyalty.md). */
    bonuses: str(20).describe('Bonuses to spend, whole roubles'),
    ...BasketQuery,
    ...(Object.fromEntries(
      CHECKOUT_FIELDS.map((name) => [
        name,
        z.unknown().optional().meta({
          type: 'string',
          maxLength: CHECKOUT_MAX_LENGTH[name],
          description: CHECKOUT_FIELD_TEXT[name],
        }),
      ]),
    ) as Record<CheckoutField, z.ZodOptional<z.ZodUnknown>>),
  })
  .catchall(z.unknown());

export const CHECKOUT_ERRORS = {
  unavailable: (items: readonly string[]) =>
    `Пока вы оформляли заказ, закончились: ${items.join('; ')}. Мы обновили корзину — проверьте её и оформите заказ ещё раз.`,
  pointsFailed: 'Не удалось загрузить пункты выдачи. Попробуйте позже или выберите другой способ доставки.',
  keyReused: 'Эта форма уже была отправлена с другими данными. Обновите страницу и оформите заказ ещё раз.',
} as const;

function toDeliveryCity(c: ShopCity): DeliveryCity {
  return {
    ID: c.cdekCode === null ? 'world' : String(c.cdekCode),
    NAME: c.name,
    REGION: c.region,
    COUNTRY: c.country,
    COUNTRY_CODE: c.countryCode,
    CDEK_CODE: c.cdekCode,
  };
}

export function toPickupPoint(p: CdekDeliveryPoint): PickupPoint {
  return {
    code: p.code,
    name: p.name,
    type: p.type,
    work_time: p.work_time,
    address_comment: p.address_comment,
    nearest_metro_station: p.nearest_metro_station,
    is_dressing_room: p.is_dressing_room,
    phones: p.phones.map((ph) => ph.number),
    location: {
      city: p.location.city,
      city_code: p.location.city_code,
      postal_code: p.location.postal_code,
      address: p.location.address,
      address_full: p.location.address_full,
      address_small: `${p.location.city}, ${p.location.address}`,
      latitude: p.location.latitude,
      longitude: p.location.longitude,
    },
  };
}

function priceText(quote: DeliveryQuote): string {
  if (quote.costKopecks === null) return quote.costError ?? 'стоимость уточнит менеджер';
  return quote.costKopecks === 0 ? 'бесплатно' : formatRub(quote.costKopecks);
}

function roublesOrNull(kopecks: number | null): number | null {
  return kopecks === null ? null : kopecksToRoubles(kopecks);
}

export async function checkoutRoutes(app: FastifyInstance, deps: CheckoutRouteDeps): Promise<void> {
  const { db, authSecret } = deps;
  const prefix = app.prefix;

  defineRoute(app, {
    method: 'GET',
    url: '/api/catalog/get_cities.php',
    summary:
      'The cities the shop delivers to (Russia, Belarus, Kazakhstan, other CIS; one entry for the rest of the world)',
    responses: { 200: { description: 'cities', schema: CitiesResponse } },
    handler: async (_input, _req, reply) => {
      reply.header('cache-control', 'public, max-age=3600');
      return { cities: SHOP_CITIES.map(toDeliveryCity) } satisfies CitiesResponse;
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/api/catalog/get_order_params.php',
    summary: 'Delivery methods (with cost, dates, pickup points) and payment methods for a city and basket',
    query: OrderParamsQuery,
    responses: {
      200: { description: 'delivery_methods and payment_methods', schema: OrderParamsResponse },
      400: BAD_PARAMETERS,
    },
    handler: ({ query }, req, reply) => orderParams(query, req, reply),
  });

  async function orderParams(q: z.infer<typeof OrderParamsQuery>, req: FastifyRequest, reply: FastifyReply) {
    reply.header('cache-control', 'private, no-store');
    const city = findShopCity(q.city ?? '');
    const checkoutBasket = await loadCheckoutBasket({
      db,
      ids: q.ids,
      preorderIds: q.preorder_ids,
      promoCode: q.promo_code,
    });
    const ids = deliveryMethodIds({
      city,
      hasItems: !checkoutBasket.isEmpty,
      onlyElectronic: checkoutBasket.onlyElectronic,
    });
    const now = new Date();
    const methods = await Promise.all(
      ids.map(async (id): Promise<DeliveryMethod> => {
        const quote = await quoteDelivery(deps, {
          city,
          deliveryId: id,
          parcelLines: checkoutBasket.parcelLines,
          now,
          preorders: checkoutBasket.preorders,
        });
        const method: DeliveryMethod = {
          ID: id,
          NAME: deliveryText(id, city).name,
          DESCRIPTION: deliveryText(id, city).description,
          MODE: deliveryMode(id),
          PRICE: roublesOrNull(quote.costKopecks),
          PRICE_TEXT: priceText(quote),
          PERIOD_TEXT: quote.periodText,
          DATE_FROM: quote.dateFrom,
          DATE_TO: quote.dateTo,
          ...(quote.preorderFrom
            ? { PREORDER_DATE_FROM: quote.preorderFrom, PREORDER_DATE_TO: quote.preorderTo ?? null }
            : {}),
          NOTE: quote.note,
        };
        if (id === DELIVERY_ID.cdekPickup && city?.cdekCode) {
          try {
            method.PVZS = (await cityPickupPoints(deps, city.cdekCode)).map(toPickupPoint);
          } catch (err) {
            req.log.warn(
              { err: err instanceof Error ? err.message : String(err), city: city.cdekCode },
              'pickup points failed',
            );
            method.PVZS = [];
            method.NOTE = CHECKOUT_ERRORS.pointsFailed;
          }
          method.FRAME_PVZ = `<iframe src="${prefix}/api/cdek/?action=map&amp;city_code=${city.cdekCode}" title="Пункты выдачи СДЭК на карте" loading="lazy" width="100%" height="480"></iframe>`;
        }
        return method;
      }),
    );
    const payments = new Map<string, string[]>();
    for (const id of ids) {
      for (const p of paymentMethodIds({
        deliveryId: id,
        hasPreorders: checkoutBasket.hasPreorders,
        hasCertificates: checkoutBasket.hasCertificates,
      }))
        payments.set(p, [...(payments.get(p) ?? []), id]);
    }
    // Pay in parts: judged on the basket's amount here (the delivery is chosen later; the form
    // recomputes with its cost and order.php judges the final pay amount).
    const instalmentReason = instalmentUnavailableReason(checkoutBasket.priced.payKopecks);
    const schedule = instalmentSchedule(checkoutBasket.priced.payKopecks, now)?.map((p) => ({
      DATE: isoDay(p.date),
      AMOUNT: kopecksToRoubles(p.amountKopecks),
    }));
    const payment_methods: PaymentMethod[] = [...payments].map(([id, deliveryIds]) => ({
      ID: id,
      NAME: paymentText(id).name,
      DESCRIPTION: paymentText(id).description,
      DELIVERY_IDS: deliveryIds,
      ...(isInstalmentPaymentId(id) ? { DISABLED_REASON: instalmentReason, SCHEDULE: schedule ?? null } : {}),
    }));
    return {
      city: city ? toDeliveryCity(city) : null,
      delivery_methods: methods,
      payment_methods,
    } satisfies OrderParamsResponse;
  }

  // Ours: how many bonuses this customer may spend on this basket (content/pages/loyalty.md: up
  // to 20 % of its full-price goods, not with a promo code). POST: the token stays out of URLs.
  defineRoute(app, {
    method: 'POST',
    url: '/api/catalog/order_bonuses.php',
    summary:
      'How many bonuses the customer may spend on this basket: up to 20 % of its full-price goods, none with a promo code (content/pages/loyalty.md)',
    body: OrderBonusesBody,
    responses: {
      200: {
        description: 'The balance and the most to spend (roubles), with the Russian reason when none',
        schema: OrderBonusesResponse,
      },
      400: BAD_PARAMETERS,
      401: NO_SESSION,
    },
    handler: ({ body }, _req, reply) => orderBonuses(body, reply),
  });

  async function orderBonuses(body: z.infer<typeof OrderBonusesBody>, reply: FastifyReply) {
    reply.header('cache-control', 'private, no-store');
    const session = await sessionOfToken({ db, secret: authSecret, token: body.token });
    if (!session) return unauthorized(reply);
    const checkoutBasket = await loadCheckoutBasket({
      db,
      ids: body.ids,
      preorderIds: body.preorder_ids,
      promoCode: body.promo_code,
      customerId: session.customerId,
    });
    const balance = await bonusBalance(db, session.customerId);
    const withPromo = checkoutBasket.priced.promo.status === 'valid';
    const cap = bonusCapKopecks(loyaltyLines(checkoutBasket.priced));
    const note =
      balance === 0 ? null : withPromo ? LOYALTY_TEXT.notWithPromo : cap === 0 ? LOYALTY_TEXT.nothingEligible : null;
    return {
      balance: kopecksToRoubles(balance),
      max: note ? 0 : kopecksToRoubles(Math.min(balance, cap)),
      note,
    } satisfies OrderBonusesResponse;
  }

  defineRoute(app, {
    method: 'GET',
    url: '/api/catalog/getdeliverycost.php',
    summary: 'The delivery cost of one method for this basket and city (null: to be confirmed by staff)',
    query: DeliveryCostQuery,
    responses: { 200: { description: 'deliverycost', schema: DeliveryCostResponse }, 400: BAD_PARAMETERS },
    handler: ({ query }, req, reply) => deliveryCost(query, req, reply),
  });

  async function deliveryCost(q: z.infer<typeof DeliveryCostQuery>, req: FastifyRequest, reply: FastifyReply) {
    reply.header('cache-control', 'private, no-store');
    // SPEC §7 nests it in `data`; a query string keeps `data[city]` as one key.
    const city = findShopCity(q.city ?? q.data?.city ?? q['data[city]'] ?? '');
    const deliveryId = q.delivery_id ?? '';
    const checkoutBasket = await loadCheckoutBasket({
      db,
      ids: q.ids,
      preorderIds: q.preorder_ids,
      promoCode: q.promo_code,
    });
    const fail = (error: string): DeliveryCostResponse => ({
      deliverycost: null,
      text: error,
      DATE_FROM: null,
      DATE_TO: null,
      error,
    });
    if (checkoutBasket.isEmpty) return fail(CHECKOUT_TEXT.emptyBasket);
    // Counted as the CDEK routes are (core/anonymous-limits.ts), CDEK delivery or not: one cap a shopper.
    if (!(await hitRateLimit({ db, ...cdekIpCounter(deps.limits ?? DEFAULT_ANONYMOUS_LIMITS, req.ip) }))) {
      req.log.warn({ ip: req.ip }, 'delivery cost refused: a cap was hit');
      return fail(LIMIT_TEXT.cdek);
    }
    if (
      !deliveryMethodIds({ city, hasItems: true, onlyElectronic: checkoutBasket.onlyElectronic }).includes(deliveryId)
    )
      return fail(CHECKOUT_TEXT.deliveryNotForCity);
    if (deliveryId === DELIVERY_ID.cdekPickup && q.code_pvz) {
      const point = await findPoint(deps, city, q.code_pvz).catch(() => undefined);
      if (point === null) return fail(CHECKOUT_TEXT.pointNotInCity);
    }
    const quote = await quoteDelivery(deps, {
      city,
      deliveryId,
      parcelLines: checkoutBasket.parcelLines,
      preorders: checkoutBasket.preorders,
    });
    return {
      deliverycost: roublesOrNull(quote.costKopecks),
      text: priceText(quote),
      DATE_FROM: quote.dateFrom,
      DATE_TO: quote.dateTo,
      ...(quote.preorderFrom
        ? { PREORDER_DATE_FROM: quote.preorderFrom, PREORDER_DATE_TO: quote.preorderTo ?? null }
        : {}),
      error: quote.costKopecks === null ? quote.costError : null,
    } satisfies DeliveryCostResponse;
  }

  const orderDoc = {
    url: '/api/catalog/order.php',
    description:
      "Everything is recomputed by the server; a different delivery cost is answered with the new one. Shopper mistakes answer 200 with `success: false` and `data` as the error set (field → Russian message; `error` for the form). The form's fields: SPEC §3.",
    responses: {
      200: {
        description: 'The order id, or data as the error set (field → Russian message; error for the form)',
        schema: CheckoutOrderResponse,
      },
      400: BAD_PARAMETERS,
      401: { description: 'No session', schema: CheckoutOrderResponse },
      422: { description: 'The key was used before with another order', schema: CheckoutOrderResponse },
      500: { description: SERVER_ERROR_TEXT, schema: ApiError },
    },
  };
  defineRoute(app, {
    ...orderDoc,
    method: 'POST',
    summary: "Place the session customer's order (a form)",
    body: OrderBody,
    handler: ({ body }, req, reply) => order(body, req, reply),
  });
  defineRoute(app, {
    ...orderDoc,
    method: 'GET',
    summary: "Place the session customer's order: the form's fields as a query (SPEC writes it so; POST is the same)",
    query: OrderBody,
    handler: ({ query }, req, reply) => order(query, req, reply),
  });

  async function order(body: z.infer<typeof OrderBody>, req: FastifyRequest, reply: FastifyReply) {
    reply.header('cache-control', 'private, no-store');
    const session = await sessionOfToken({ db, secret: authSecret, token: body.token });
    if (!session)
      return unauthorized(reply, {
        success: false,
        data: { error: AUTH_TEXT.sessionGone },
      } satisfies CheckoutOrderResponse);
    const fail = (
      data: Record<string, string>,
      extra: { deliverycost?: number | null } = {},
    ): CheckoutOrderResponse => ({ success: false, data, ...extra });

    const raw: Record<string, string> = {};
    for (const name of CHECKOUT_FIELDS) {
      const v = lastValue(body[name]);
      if (typeof v === 'string') raw[name] = v;
    }
    const checked = validateCheckout(raw);
    if (!checked.ok) return fail(checked.errors);
    const form = checked.value;
    const certificates = parseCertificateCodes([body.certificates ?? '']);
    if (!certificates.ok) return fail({ certificates: certificates.error });
    const bonusText = (body.bonuses ?? '').trim();
    if (bonusText !== '' && !/^\d{1,9}$/.test(bonusText)) return fail({ bonuses: LOYALTY_TEXT.badAmount });
    const bonusKopecks = bonusText === '' ? 0 : Number(bonusText) * 100;
    // The code as get_cart.php reads it (trimmed, upper-case): the basket priced 'vitrina10' with
    // the discount, so the order takes it too; typed junk is 'not found' here as it was there.
    const promoCode = normalizePromoCode(body.promo_code);
    if (!promoCode && (body.promo_code ?? '').trim() !== '') return fail({ promo_code: PROMO_ERROR_NOT_FOUND });

    const city = findShopCity(form.city);
    const checkoutBasket = await loadCheckoutBasket({
      db,
      ids: body.ids,
      preorderIds: body.preorder_ids,
      promoCode: body.promo_code,
      customerId: session.customerId,
    });
    // The basket changed since the shopper saw it (sold out, cut to stock, no longer sold): the
    // order is not placed as something else; they see what changed and confirm again.
    if (checkoutBasket.basket.notices.length > 0)
      return fail({ error: CHECKOUT_ERRORS.unavailable(checkoutBasket.basket.notices) });
    if (
      !deliveryMethodIds({ city, hasItems: true, onlyElectronic: checkoutBasket.onlyElectronic }).includes(
        form.deliveryId,
      )
    ) {
      return fail({ delivery_id: CHECKOUT_TEXT.deliveryNotForCity });
    }
    if (checkoutBasket.isEmpty) return fail({ error: CHECKOUT_TEXT.emptyBasket });
    if (checkoutBasket.hasCertificates && !paysForCertificates(form.paymentId))
      return fail({ payment_id: CERTIFICATE_TEXT.onlineOnly });
    if (
      !paymentMethodIds({
        deliveryId: form.deliveryId,
        hasPreorders: checkoutBasket.hasPreorders,
        hasCertificates: checkoutBasket.hasCertificates,
      }).includes(form.paymentId)
    ) {
      return fail({ payment_id: CHECKOUT_TEXT.paymentNotForDelivery });
    }
    if (deliveryMode(form.deliveryId) === 'address') {
      // A saved address goes to its own city only (issue #26): never «Новосибирск, Невский пр».
      const saved = (await listAddresses({ db, customerId: session.customerId })).map((a) => ({
        city: a.fields.city ?? '',
        street: a.fields.street ?? '',
        house: a.fields.house ?? '',
        flat: a.fields.flat ?? '',
        postal_code: a.fields.postal_code ?? '',
      }));
      const savedCity = savedAddressCityMismatch(form, saved);
      if (savedCity) return fail({ street: CHECKOUT_TEXT.addressOfOtherCity(savedCity, city?.name ?? form.city) });
    }
    let point: CdekDeliveryPoint | null = null;
    if (form.deliveryId === DELIVERY_ID.cdekPickup) {
      try {
        point = await findPoint(deps, city, form.pickupPoint);
      } catch (err) {
        req.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'pickup points failed at order');
        return fail({ code_pvz: CHECKOUT_ERRORS.pointsFailed });
      }
      if (!point) return fail({ code_pvz: CHECKOUT_TEXT.pointNotInCity });
    }

    // The cost the shopper saw must be the one the server computes now; otherwise show the new one.
    const quote = await quoteDelivery(deps, {
      city,
      deliveryId: form.deliveryId,
      parcelLines: checkoutBasket.parcelLines,
      preorders: checkoutBasket.preorders,
    });
    const sent =
      body.deliverycost === undefined || body.deliverycost.trim() === ''
        ? null
        : parseRoublesToKopecks(body.deliverycost);
    if (sent !== quote.costKopecks)
      return fail(
        { deliverycost: CHECKOUT_TEXT.deliveryCostChanged },
        { deliverycost: roublesOrNull(quote.costKopecks) },
      );

    // Pay in parts only for pay amounts of 500–40 000 ₽, delivery included (SPEC §9): judged on
    // what is left after bonuses and certificates, inside the order's transaction.
    const instalments = isInstalmentPaymentId(form.paymentId);
    const online = isOnlinePaymentId(form.paymentId);
    const name = { firstName: form.firstname, lastName: form.lastname, secondName: form.secondname };
    const result = await placeOrder({
      db,
      kind: 'checkout',
      customerId: session.customerId,
      phone: form.phone,
      name: [form.firstname, form.lastname].filter(Boolean).join(' '),
      cart: checkoutBasket.basket.cart,
      preorders: checkoutBasket.basket.preorders,
      // Priced from the catalogue this request just read and judged (the order's stock is taken
      // under its row locks all the same): not read again inside the transaction.
      catalog: checkoutBasket.catalog,
      promoCode,
      idempotencyKey: body.key ? `checkout:${session.customerId}:${body.key}` : null,
      fields: formFields(form),
      deliveryCostKopecks: quote.costKopecks ?? 0,
      status: online ? 'awaiting_payment' : 'new',
      // Paid on receipt: the order goes ahead now, its jobs written in the order's own statement
      // (the same jobs as a payment's, enqueueGoAheadJobs).
      jobs: online
        ? []
        : goAheadJobs({
            deliveryId: form.deliveryId,
            electronicCertificates: checkoutBasket.priced.lines.some(
              (l) => !l.isGift && l.certificate === 'electronic',
            ),
          }),
      bonusKopecks,
      certificateCodes: certificates.codes,
      checkDue: instalments ? instalmentUnavailableReason : undefined,
      checkout: {
        email: form.email,
        paymentId: form.paymentId,
        deliveryId: form.deliveryId,
        deliveryCity: city?.name ?? form.city,
        deliveryAddress: point ? point.location.address_full : addressLine(form),
        pickupPoint: point ? (toPickupPoint(point) as unknown as Record<string, unknown>) : null,
        costPending: quote.costKopecks === null,
        dateFrom: quote.dateFrom,
        dateTo: quote.dateTo,
        note: quote.note,
        trips: quote.trips,
      },
      afterWrite: async (tx, orderId, money) => {
        if (online && !money.paid) {
          // Card and pay in parts: the stock is held until pay_until, then released (models/payments.server.ts);
          // the notice and CDEK registration wait for the verified payment.
          await holdForPayment(tx, orderId, deps.payHoldMinutes ?? 30);
        } else if (online) {
          // Paid in full by certificates: the order goes ahead now (the same jobs as a payment's).
          await enqueueGoAheadJobs(tx, { id: orderId, deliveryId: form.deliveryId });
        }
        // The customer's saved basket was this order: it is empty now, on every device; the name
        // typed here starts the next checkout (issue #26).
        await clearBasketAfterCheckout(tx, { customerId: session.customerId, name });
      },
    });
    if (!result.ok) {
      if (result.reason === 'empty') return fail({ error: CHECKOUT_TEXT.emptyBasket });
      if (result.reason === 'key_reused') return reply.code(422).send(fail({ error: CHECKOUT_ERRORS.keyReused }));
      if (result.reason === 'unavailable')
        return fail({ error: CHECKOUT_ERRORS.unavailable(result.items.map((item) => `${item}: закончился`)) });
      if (result.reason === 'bonuses') return fail({ bonuses: result.error });
      if (result.reason === 'certificate')
        return fail({
          certificates: result.code ? `${formatCertificateCode(result.code)}: ${result.error}` : result.error,
        });
      if (result.reason === 'payment') return fail({ payment_id: result.error });
      return fail({ promo_code: result.error });
    }
    req.log.info(
      { orderId: result.orderId, repeated: result.repeated, delivery: form.deliveryId, payment: form.paymentId },
      'order placed',
    );
    if (!result.repeated) deps.onOrderPlaced?.(result.orderId);
    return {
      success: true,
      order_id: result.orderId,
      user_id: session.customerId,
      payment_id: form.paymentId,
      // SPEC §5: the discounted total plus the delivery cost when above 0 (placeOrder adds it so).
      pay_amount: kopecksToRoubles(result.payKopecks),
      status: online && !result.paid ? 'awaiting_payment' : 'new',
    } satisfies CheckoutOrderResponse;
  }
}

/** The point of that code among the city's points: null when it is not one of them (rejects when CDEK fails). */
async function findPoint(deps: CheckoutDeps, city: ShopCity | null, code: string): Promise<CdekDeliveryPoint | null> {
  if (!city?.cdekCode || !code) return null;
  const points = await cityPickupPoints(deps, city.cdekCode);
  return points.find((p) => p.code === code) ?? null;
}

/** The checked form under the names order.php receives them (SPEC §3), empty ones left out. */
function formFields(form: CheckoutForm): Record<string, string> {
  const named: Record<string, string> = {
    firstname: form.firstname,
    lastname: form.lastname,
    secondname: form.secondname,
    phone: form.phone,
    email: form.email,
    city: form.city,
    delivery_id: form.deliveryId,
    street: form.street,
    house: form.house,
    flat: form.flat,
    postcode: form.postcode,
    comment: form.comment,
    code_pvz: form.pickupPoint,
    payment_id: form.paymentId,
  };
  return Object.fromEntries(Object.entries(named).filter(([, v]) => v !== ''));
}

/** An unknown city gets the by-agreement method under a name that does not say "abroad". */
const UNKNOWN_CITY_TEXT = {
  name: 'Доставка по договорённости',
  description:
    'Этого города нет в нашем списке: менеджер свяжется с вами, подберёт способ доставки и рассчитает стоимость и сроки.',
};

function deliveryText(id: string, city: ShopCity | null): { name: string; description: string } {
  if (id === DELIVERY_ID.world && city === null) return UNKNOWN_CITY_TEXT;
  return isDeliveryId(id) ? DELIVERY_TEXT.delivery[id] : { name: id, description: '' };
}

function paymentText(id: string): { name: string; description: string } {
  return id in DELIVERY_TEXT.payment
    ? DELIVERY_TEXT.payment[id as keyof typeof DELIVERY_TEXT.payment]
    : { name: id, description: '' };
}
