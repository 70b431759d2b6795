import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Database } from '~/db/client.server';
import { normalizePhone } from '~/core/phone';
import { WAITING_LIST_IN_STOCK, WAITING_LIST_THANKS } from '~/core/waiting-list';
import { CartResponse, FastOrderResponse, OrderToCartResponse, WaitingListResponse } from '~/shared/contract';
import { GIFT_COVER_OFFER_ID, mergeCartLists } from '~/core/basket';
import { getCustomerBasket, saveCustomerBasket } from '~/models/customers.server';
import { repeatOrderLines } from '~/models/account-orders.server';
import { ACCOUNT_TEXT } from '~/core/account';
import { customerRoute } from '~/api/account/require-customer.server';
import { sessionOfToken } from '~/api/account/session.server';
import { joinWaitingList } from '~/models/waiting-list.server';
import { placeOrder } from '~/models/orders.server';
import { getBasketCatalog } from '~/models/basket.server';
import { lastValue, queryString } from '~/api/http.server';
import { BAD_PARAMETERS, defineRoute } from '~/api/route.server';
import { getCart } from './cart.server';
import type { CaptchaVerifier } from '~/integrations/captcha/captcha';
import { AUTH_TEXT } from '~/core/auth';
import {
  DEFAULT_ANONYMOUS_LIMITS,
  fastOrderCounters,
  LIMIT_TEXT,
  waitingListCounters,
  type AnonymousLimits,
} from '~/core/anonymous-limits';
import { hitRateLimits } from '~/models/rate-limit.server';

// SPEC §7 basket calls, at the paths SPEC writes: get_cart.php, fastorder.php, addtowishlist.php
// (the back-in-stock waiting list, despite its name).

export const FORM_ERRORS = {
  name: 'Укажите имя',
  phone: 'Проверьте номер телефона',
  offer: 'Товар не найден',
  check: 'Проверьте имя и номер телефона',
  keyReused: 'Эта форма уже была отправлена с другими данными. Обновите страницу и отправьте её ещё раз.',
} as const;

const CartBody = z.object({
  ids: queryString().describe("Basket lines: 'offerId:quantity' pairs joined by commas"),
  preorder_ids: queryString().describe('Pre-order lines, the same format'),
  promo_code: queryString().describe('Promo code'),
  token: queryString().describe("Session token: the customer's basket saved on the server"),
  cart_rev: queryString().describe('The saved basket revision this copy was made from'),
  merge: queryString().describe("'Y' (at login): add this guest basket to the saved one"),
});

const OrderToCartBody = z.object({
  token: queryString().describe('Session token'),
  order_id: z.preprocess(lastValue, z.string().max(20).optional()).describe('Order id'),
});

const personQuery = {
  name: z.preprocess(lastValue, z.string().max(10_000).optional()).describe('Customer name (required)'),
  phone: z.preprocess(lastValue, z.string().max(10_000).optional()).describe('Phone, any formatting (required)'),
};
const offerIdParam = () =>
  z
    .preprocess((v) => {
      const s = lastValue(v);
      return typeof s === 'string' && /^\d{1,10}$/.test(s) && Number(s) >= 1 && Number(s) <= 2_147_483_647
        ? Number(s)
        : undefined;
    }, z.number().int().optional())
    .describe('Offer id (required; junk is «Товар не найден»)');
const FastOrderQuery = z.object({
  id: offerIdParam(),
  ...personQuery,
  key: z
    .preprocess((v) => {
      const s = lastValue(v);
      return typeof s === 'string' && /^[A-Za-z0-9-]{8,64}$/.test(s) ? s : undefined;
    }, z.string().optional())
    .describe('Idempotency key of this submission (8–64 of A–Z, a–z, 0–9, -): a repeat gets the first answer'),
  // The captcha token (action fast_order), as login's send_sms.php takes it.
  recaptcha_token: z
    .preprocess(lastValue, z.string().max(4000).optional())
    .describe('Captcha token of action fast_order (as send_sms.php); offline, any non-empty token but offline-fail'),
});
const WaitingListQuery = z.object({ product_id: offerIdParam(), ...personQuery });

/** Name and phone of a guest form: the person, or the flagged fields. */
function checkPerson(q: {
  name?: string;
  phone?: string;
}): { name: string; phone: string } | { fields: { name?: string; phone?: string } } {
  const name = (q.name ?? '').trim().replace(/\s+/g, ' ');
  const phone = normalizePhone(q.phone ?? '');
  const fields: { name?: string; phone?: string } = {};
  if (name.length === 0 || name.length > 100) fields.name = FORM_ERRORS.name;
  if (!phone.ok) fields.phone = FORM_ERRORS.phone;
  if (fields.name || fields.phone || !phone.ok) return { fields };
  return { name, phone: phone.phone };
}

/**
 * A logged-in customer's basket lives on the server (SPEC §6: the cart comes from the profile),
 * so it follows them to another device. `merge=Y` (at login) adds the browser's guest basket to
 * it (so does a copy without `cart_rev`). Otherwise the browser's copy is saved when it was
 * made from the latest saved basket (`cart_rev`); an older copy (another device changed the
 * basket since) gets the saved one.
 */
async function getCustomerCart({
  db,
  customerId,
  body,
}: {
  db: Database;
  customerId: number;
  body: z.infer<typeof CartBody>;
}): Promise<CartResponse> {
  const stored = (await getCustomerBasket({ db, customerId })) ?? { cart: '', preorders: '', rev: 0 };
  const sentCopy = body.ids !== undefined || body.preorder_ids !== undefined;
  const lists =
    // A copy that says nothing of where it came from is added too rather than thrown away.
    body.merge === 'Y' || (sentCopy && body.cart_rev === undefined)
      ? { ids: mergeCartLists(stored.cart, body.ids), preorderIds: mergeCartLists(stored.preorders, body.preorder_ids) }
      : sentCopy && body.cart_rev === String(stored.rev)
        ? { ids: body.ids ?? '', preorderIds: body.preorder_ids ?? '' }
        : { ids: stored.cart, preorderIds: stored.preorders };
  const answer = await getCart({
    db,
    ids: lists.ids,
    preorderIds: lists.preorderIds,
    promoCode: body.promo_code,
    customerId,
  });
  let rev = stored.rev;
  if (answer.cart !== stored.cart || answer.preorders !== stored.preorders) {
    const saved = await saveCustomerBasket({
      db,
      customerId,
      cart: answer.cart,
      preorders: answer.preorders,
      expectedRev: stored.rev,
    });
    // Saved by another request in between: this answer is still a priced basket; the next load reconciles.
    rev = saved ?? stored.rev;
  }
  return { ...answer, cart_rev: rev };
}

export interface BasketDeps {
  db: Database;
  authSecret: string;
  /** The fast order's captcha (the login's verifier; offline, any non-empty token passes). */
  captcha: CaptchaVerifier;
  /** Caps on fast orders and the waiting list, and how long an unconfirmed fast order holds stock. */
  limits?: AnonymousLimits;
}

/** The captcha action of a fast order (the storefront asks for a token of it). */
export const FAST_ORDER_CAPTCHA_ACTION = 'fast_order';

export async function basketRoutes(
  app: FastifyInstance,
  { db, authSecret, captcha, limits = DEFAULT_ANONYMOUS_LIMITS }: BasketDeps,
): Promise<void> {
  defineRoute(app, {
    method: 'POST',
    url: '/api/personal/get_cart.php',
    summary: 'The basket priced by the server: lines with their sizes, gift covers, promo code, totals',
    description:
      "Prices are always the catalogue's; the answer's cart and preorders are the basket as accepted (junk dropped, quantities cut to stock). With a token, the customer's basket saved on the server (merged or replaced by cart_rev and merge).",
    body: CartBody,
    responses: { 200: { description: 'The basket', schema: CartResponse }, 400: BAD_PARAMETERS },
    handler: async ({ body }, _req, reply) => {
      reply.header('cache-control', 'private, no-store');
      const session = await sessionOfToken({ db, secret: authSecret, token: body.token });
      if (!session) return getCart({ db, ids: body.ids, preorderIds: body.preorder_ids, promoCode: body.promo_code });
      return getCustomerCart({ db, customerId: session.customerId, body });
    },
  });

  // Ours (issue #26): an order back in the basket in one click («Повторить заказ», or an order
  // cancelled when its time to pay ran out): its lines, pre-orders as pre-orders while they still
  // can be, are added to the customer's saved basket as the login merge adds a guest's (summed,
  // cut to stock; the gift cover recounted from the coats). Only the customer's own order, and
  // not one still awaiting its payment; another's is "not found".
  customerRoute(
    app,
    { db, secret: authSecret },
    {
      url: '/api/personal/order_to_cart.php',
      summary:
        "Puts the lines of one of the customer's orders back in their saved basket (summed, cut to stock; pre-orders as pre-orders while they can be): the basket as saved",
      body: OrderToCartBody,
      responses: {
        200: {
          description: "The basket, or error when the order is not the customer's or still awaits its payment",
          schema: OrderToCartResponse,
        },
      },
      handler: async (session) => {
        const { body } = session;
        const orderId = /^[1-9]\d{0,8}$/.test(body.order_id ?? '') ? Number(body.order_id) : null;
        const lines = orderId === null ? null : await repeatOrderLines({ db, customerId: session.customerId, orderId });
        if (!lines) return { error: ACCOUNT_TEXT.orderNotFound };
        return getCustomerCart({
          db,
          customerId: session.customerId,
          body: { ids: lines.cart, preorder_ids: lines.preorders, merge: 'Y' },
        });
      },
    },
  );

  defineRoute(app, {
    method: 'GET',
    url: '/api/catalog/fastorder.php',
    summary:
      'Order one offer as a guest in one step (a pre-order when the size is out of stock but open for pre-order)',
    description:
      'Capped per IP (FAST_ORDERS_PER_IP_HOUR), per phone (FAST_ORDERS_PER_PHONE_DAY) and per offer and IP (FAST_ORDERS_PER_OFFER_IP_DAY): beyond a cap, `success: false` with the Russian text. Stock taken is held for FAST_ORDER_HOLD_HOURS unless staff confirm the order.',
    query: FastOrderQuery,
    responses: {
      200: { description: 'The order id, or the error with the fields to flag', schema: FastOrderResponse },
      400: BAD_PARAMETERS,
      422: { description: 'The key was used before with another offer, name or phone', schema: FastOrderResponse },
    },
    handler: ({ query }, req, reply) => fastOrder(query, req, reply),
  });

  async function fastOrder(q: z.infer<typeof FastOrderQuery>, req: FastifyRequest, reply: FastifyReply) {
    reply.header('cache-control', 'private, no-store');
    const fail = (error: string, fields: { name?: string; phone?: string } = {}): FastOrderResponse => ({
      success: false,
      data: { error, fields },
    });
    const person = checkPerson(q);
    if ('fields' in person) return fail(FORM_ERRORS.check, person.fields);
    if (q.id === undefined) return fail(FORM_ERRORS.offer);
    // The captcha first: a bot's request costs no counter and takes no stock.
    const check = await captcha.verify({
      token: q.recaptcha_token ?? '',
      action: FAST_ORDER_CAPTCHA_ACTION,
      ip: req.ip,
    });
    if (!check.ok) {
      req.log.info({ reason: check.reason, score: check.score }, 'fast order refused: captcha');
      return fail(AUTH_TEXT.captcha);
    }
    // In stock: an ordinary line; sold out but open for pre-order: a pre-order line.
    // With the gift cover: the order prices from this read (one catalogue read per fast order).
    const catalog = await getBasketCatalog({ db, offerIds: [q.id, GIFT_COVER_OFFER_ID] });
    const offer = catalog.offers.get(q.id);
    if (!offer || !offer.active) return fail(FORM_ERRORS.offer);
    // Caps per IP, phone and size (core/anonymous-limits.ts): one address cannot take a size's stock.
    const refused = await hitRateLimits({
      db,
      counters: fastOrderCounters(limits, { ip: req.ip, phone: person.phone, offerId: q.id }),
    });
    if (refused) {
      req.log.warn({ limit: refused.replace(/:[^:]*$/, ''), ip: req.ip }, 'fast order refused: a cap was hit');
      return fail(LIMIT_TEXT.fastOrder);
    }
    const preorder = offer.available <= 0 && offer.preorder;
    const line = [{ offerId: q.id, quantity: 1 }];
    const result = await placeOrder({
      db,
      kind: 'fast',
      customerId: null,
      phone: person.phone,
      name: person.name,
      cart: preorder ? [] : line,
      preorders: preorder ? line : [],
      // Scoped to who sends it (the guest's phone and the offer), as checkout keys are to the
      // customer: another guest's key is another key, never their order.
      idempotencyKey: q.key ? `fast:${person.phone}:${q.id}:${q.key}` : null,
      catalog,
      // Stock taken for an order staff never confirm goes back after FAST_ORDER_HOLD_HOURS
      // (the 'order.release' job, models/payments.server.ts; written with the order, payload
      // { orderId }); a pre-order takes none.
      jobs: preorder
        ? []
        : [{ kind: 'order.release', runAt: new Date(Date.now() + limits.fastOrderHoldHours * 3_600_000) }],
    });
    if (result.ok) {
      req.log.info({ orderId: result.orderId, repeated: result.repeated }, 'fast order placed');
      return { success: true, order_id: result.orderId } satisfies FastOrderResponse;
    }
    if (result.reason === 'key_reused') {
      req.log.warn({ offerId: q.id }, 'fast order: key reused with other content');
      return reply.code(422).send(fail(FORM_ERRORS.keyReused));
    }
    if (result.reason === 'unavailable') return fail(`Нет в наличии: ${result.items.join('; ')}`);
    return fail(FORM_ERRORS.offer);
  }

  defineRoute(app, {
    method: 'GET',
    url: '/api/catalog/addtowishlist.php',
    summary: 'Join the back-in-stock waiting list of a sold-out size (one SMS when it is back)',
    description:
      'Capped per IP (WAITING_LIST_PER_IP_HOUR), per phone (WAITING_LIST_PER_PHONE_DAY) and per offer and IP (WAITING_LIST_PER_OFFER_IP_DAY).',
    query: WaitingListQuery,
    responses: {
      200: { description: 'Joined, or the error with the fields to flag', schema: WaitingListResponse },
      400: BAD_PARAMETERS,
    },
    handler: ({ query }, req, reply) => waitingList(query, req, reply),
  });

  async function waitingList(q: z.infer<typeof WaitingListQuery>, req: FastifyRequest, reply: FastifyReply) {
    reply.header('cache-control', 'private, no-store');
    const fail = (error: string, fields: { name?: string; phone?: string } = {}): WaitingListResponse => ({
      success: false,
      error: { data: { error, fields } },
    });
    const person = checkPerson(q);
    if ('fields' in person) return fail(FORM_ERRORS.check, person.fields);
    if (q.product_id === undefined) return fail(FORM_ERRORS.offer);
    // Each entry is one SMS at restock: caps per IP, phone and size (core/anonymous-limits.ts).
    const refused = await hitRateLimits({
      db,
      counters: waitingListCounters(limits, { ip: req.ip, phone: person.phone, offerId: q.product_id }),
    });
    if (refused) {
      req.log.warn({ limit: refused.replace(/:[^:]*$/, ''), ip: req.ip }, 'waiting list refused: a cap was hit');
      return fail(LIMIT_TEXT.waitingList);
    }
    const result = await joinWaitingList({ db, offerId: q.product_id, phone: person.phone, name: person.name });
    if (result === 'unknown') return fail(FORM_ERRORS.offer);
    if (result === 'in_stock') return fail(WAITING_LIST_IN_STOCK);
    return { success: true, message: WAITING_LIST_THANKS } satisfies WaitingListResponse;
  }
}
