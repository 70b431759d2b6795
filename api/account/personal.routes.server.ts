import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '~/db/client.server';
import {
  ACCOUNT_TEXT,
  ADDRESS_FIELD_MAX_LENGTH,
  ADDRESS_FIELDS,
  COMMENT_MAX_LENGTH,
  isNameShaped,
  MAX_ADDRESSES,
  NAME_MAX_LENGTH,
  REASON_MAX_LENGTH,
} from '~/core/account';
import { EMAIL_MAX_LENGTH } from '~/core/newsletter';
import {
  AddressChangeResponse,
  AddressesResponse,
  OrderDetailResponse,
  OrdersResponse,
  ProfileChangeResponse,
  ReturnCreateResponse,
  ReturnsResponse,
  SubscribeResponse,
} from '~/shared/contract';
import { getCustomer } from '~/models/customers.server';
import { setSubscribed, updateProfile, type ProfileChange } from '~/models/profile.server';
import { listAddresses, removeAddress, saveAddress } from '~/models/addresses.server';
import {
  createReturnRequest,
  getCustomerOrderDetail,
  listCustomerOrders,
  listReturns,
} from '~/models/account-orders.server';
import { lastValue, unauthorized } from '~/api/http.server';
import { toUserInfo } from './mappers';
import { toAccountOrder, toAccountReturn, toOrderDetail, toSavedAddress } from './personal-mappers';
import { orderCertificatesOf } from '~/models/certificate-account.server';
import { toOrderCertificate } from './certificate-mappers';
import { customerRoute, tokenField } from './require-customer.server';
import { knownCityName } from './known-city.server';
import type { AddressSuggestions } from '~/integrations/dadata/index.server';

// SPEC §7 personal-account calls after login: profile_change.php, addresses.php,
// address_add.php, address_remove.php, orders.php, returns.php, subscribe.php, and
// return_add.php (ours: a return request from the account, content/pages/return.md). Each one
// acts only on the customer of the token's session; ids in the body are looked up among that
// customer's own rows, so another customer's id answers "not found". Shopper mistakes answer
// 200 with `success: false` and Russian text; malformed bodies 400; a dead token 401.

export interface PersonalDeps {
  db: Database;
  authSecret: string;
  /** Address suggestions: a saved address's city must be a city (knownCityName). */
  suggestions: AddressSuggestions;
}

const text = (max = 10_000) => z.preprocess(lastValue, z.string().max(max).optional());
/** A positive database id written as digits. */
const idField = () =>
  z.preprocess(
    lastValue,
    z
      .string()
      .regex(/^[1-9]\d{0,8}$/, 'Неверный номер')
      .transform(Number),
  );

const ProfileChangeBody = z.object({
  token: tokenField(),
  // SPEC §5: lower-cased names; others (the phone among them) are not changed here.
  change: z
    .object({
      firstname: text().describe('First name'),
      lastname: text().describe('Last name'),
      secondname: text().describe('Patronymic'),
      email: text().describe('E-mail (stored lower-cased)'),
    })
    .optional()
    .describe('change[firstname], change[lastname], change[secondname], change[email]: only non-empty ones change'),
});
const ADDRESS_FIELD_TEXT: Record<(typeof ADDRESS_FIELDS)[number], string> = {
  city: 'City (required)',
  street: 'Street (required)',
  house: 'House',
  flat: 'Flat',
  postal_code: 'Postal code',
  comment: 'Comment for the courier',
};
const AddressBody = z.object({
  token: tokenField(),
  id: idField().optional().describe("The address to edit (one of the customer's own)"),
  ...Object.fromEntries(ADDRESS_FIELDS.map((name) => [name, text().describe(ADDRESS_FIELD_TEXT[name])])),
}) as z.ZodType<
  { token?: string | undefined; id?: number | undefined } & Partial<Record<(typeof ADDRESS_FIELDS)[number], string>>
>;
const RemoveBody = z.object({ token: tokenField(), id: idField().describe('Address id') });
const TokenOnly = z.object({ token: tokenField() });
const OrderDetailBody = z.object({ token: tokenField(), order_id: idField().describe('Order id') });
const SubscribeBody = z.object({
  token: tokenField(),
  active: z.preprocess(lastValue, z.enum(['yes', 'no'])).describe("'yes' or 'no'"),
});
const ReturnBody = z.object({
  token: tokenField(),
  order_id: idField().describe('Order id'),
  // items[offer id] = quantity
  items: z
    .record(
      z.string().regex(/^[1-9]\d{0,9}$/),
      z.preprocess(
        lastValue,
        z
          .string()
          .regex(/^\d{1,3}$/)
          .transform(Number),
      ),
    )
    .optional()
    .describe('items[{offer id}]: the quantity to return'),
  reason: text().describe(`Why (${REASON_MAX_LENGTH} characters at most)`),
});

const Email = z.string().max(EMAIL_MAX_LENGTH).pipe(z.email());

type ChangeFailure = Extract<ProfileChangeResponse, { success: false }>;

/** The change to write, or why not: only non-empty fields (SPEC §5), names checked, the e-mail lower-cased. */
function readProfileChange(
  change: z.infer<typeof ProfileChangeBody>['change'],
): { change: ProfileChange } | ChangeFailure {
  const out: ProfileChange = {};
  const names = [
    ['firstname', 'firstName'],
    ['lastname', 'lastName'],
    ['secondname', 'secondName'],
  ] as const;
  for (const [field, column] of names) {
    const value = change?.[field]?.trim() ?? '';
    if (value === '') continue;
    if (value.length > NAME_MAX_LENGTH) return { success: false, error: ACCOUNT_TEXT.longName, field };
    if (!isNameShaped(value)) return { success: false, error: ACCOUNT_TEXT.badName, field };
    out[column] = value;
  }
  const email = change?.email?.trim() ?? '';
  if (email !== '') {
    if (!Email.safeParse(email).success) return { success: false, error: ACCOUNT_TEXT.badEmail, field: 'email' };
    out.email = email.toLowerCase();
  }
  return { change: out };
}

export async function personalRoutes(
  app: FastifyInstance,
  { db, authSecret, suggestions }: PersonalDeps,
): Promise<void> {
  const auth = { db, secret: authSecret };
  app.addHook('onSend', async (_req, reply) => {
    reply.header('cache-control', 'private, no-store');
  });

  customerRoute(app, auth, {
    url: '/api/personal/profile_change.php',
    summary:
      "Change the token's customer's profile: only non-empty change[...] fields (lower-cased names); the e-mail checked",
    body: ProfileChangeBody,
    responses: {
      200: { description: 'The profile after the change, or why not (Russian)', schema: ProfileChangeResponse },
    },
    handler: async (session, _req, reply) => {
      const read = readProfileChange(session.body.change);
      if (!('change' in read)) return read;
      const updated = await updateProfile({ db, customerId: session.customerId, change: read.change });
      if (updated === 'email_taken')
        return { success: false, error: ACCOUNT_TEXT.emailTaken, field: 'email' } satisfies ProfileChangeResponse;
      const record = await getCustomer({ db, customerId: session.customerId });
      if (!record) return unauthorized(reply);
      return { success: true, profile: toUserInfo(record) } satisfies ProfileChangeResponse;
    },
  });

  customerRoute(app, auth, {
    url: '/api/personal/addresses.php',
    summary: "The token's customer's saved addresses, oldest first",
    body: TokenOnly,
    responses: { 200: { description: 'addresses', schema: AddressesResponse } },
    handler: async (session) => {
      const rows = await listAddresses({ db, customerId: session.customerId });
      return { addresses: rows.map(toSavedAddress) } satisfies AddressesResponse;
    },
  });

  customerRoute(app, auth, {
    url: '/api/personal/address_add.php',
    summary: `Add an address (at most ${MAX_ADDRESSES}), or with id edit one of the customer's own; city and street required`,
    body: AddressBody,
    responses: { 200: { description: 'The address id, or why not', schema: AddressChangeResponse } },
    handler: async (session) => {
      const body = session.body;
      const fields: Record<string, string> = {};
      for (const name of ADDRESS_FIELDS) {
        // SPEC §5: only non-empty fields are sent; a field left out is stored empty.
        const value = (body[name] ?? '').trim();
        const max = name === 'comment' ? COMMENT_MAX_LENGTH : ADDRESS_FIELD_MAX_LENGTH;
        if (value.length > max)
          return { success: false, error: ACCOUNT_TEXT.longField, field: name } satisfies AddressChangeResponse;
        if (value !== '') fields[name] = value;
      }
      if (!fields.city)
        return { success: false, error: ACCOUNT_TEXT.cityRequired, field: 'city' } satisfies AddressChangeResponse;
      if (!fields.street)
        return { success: false, error: ACCOUNT_TEXT.streetRequired, field: 'street' } satisfies AddressChangeResponse;
      // A city, not a half-typed one (issue #26), written as the shop writes it.
      const city = await knownCityName(suggestions, fields.city);
      if (!city)
        return { success: false, error: ACCOUNT_TEXT.unknownCity, field: 'city' } satisfies AddressChangeResponse;
      fields.city = city;
      const saved = await saveAddress({
        db,
        customerId: session.customerId,
        addressId: body.id,
        fields,
        limit: MAX_ADDRESSES,
      });
      if (!saved.ok)
        return {
          success: false,
          error: saved.reason === 'too_many' ? ACCOUNT_TEXT.tooManyAddresses : ACCOUNT_TEXT.addressNotFound,
        } satisfies AddressChangeResponse;
      return { success: true, id: saved.id } satisfies AddressChangeResponse;
    },
  });

  customerRoute(app, auth, {
    url: '/api/personal/address_remove.php',
    summary: "Remove one of the customer's own addresses",
    body: RemoveBody,
    responses: { 200: { description: 'Removed, or not found', schema: AddressChangeResponse } },
    handler: async (session) => {
      const removed = await removeAddress({ db, customerId: session.customerId, addressId: session.body.id });
      return (
        removed ? { success: true, id: session.body.id } : { success: false, error: ACCOUNT_TEXT.addressNotFound }
      ) satisfies AddressChangeResponse;
    },
  });

  customerRoute(app, auth, {
    url: '/api/personal/orders.php',
    summary:
      "The customer's orders, newest first: Russian dates and status labels, lines with integer rouble prices, totals",
    body: TokenOnly,
    responses: { 200: { description: 'value.orders', schema: OrdersResponse } },
    handler: async (session) => {
      const rows = await listCustomerOrders({ db, customerId: session.customerId });
      return { value: { orders: rows.map(toAccountOrder) } } satisfies OrdersResponse;
    },
  });

  // Ours: one order with its delivery, payment and history (the order-placed page, the account).
  customerRoute(app, auth, {
    url: '/api/personal/order_detail.php',
    summary: "One of the customer's orders with its delivery, payment and status history",
    body: OrderDetailBody,
    responses: {
      200: { description: "The order, or error when it is not the customer's", schema: OrderDetailResponse },
    },
    handler: async (session) => {
      const order = await getCustomerOrderDetail({
        db,
        customerId: session.customerId,
        orderId: session.body.order_id,
      });
      if (!order) return { error: ACCOUNT_TEXT.orderNotFound } satisfies OrderDetailResponse;
      const certificates = await orderCertificatesOf({
        db,
        customerId: session.customerId,
        orderId: session.body.order_id,
      });
      return {
        order: {
          ...toOrderDetail(order),
          ...(certificates.length ? { CERTIFICATES: certificates.map(toOrderCertificate) } : {}),
        },
      } satisfies OrderDetailResponse;
    },
  });

  customerRoute(app, auth, {
    url: '/api/personal/returns.php',
    summary: "The customer's return requests, newest first, with the lines asked back",
    body: TokenOnly,
    responses: { 200: { description: 'value.orders', schema: ReturnsResponse } },
    handler: async (session) => {
      const rows = await listReturns({ db, customerId: session.customerId });
      return { value: { orders: rows.map(toAccountReturn) } } satisfies ReturnsResponse;
    },
  });

  customerRoute(app, auth, {
    url: '/api/personal/return_add.php',
    summary:
      "Ask back lines of one of the customer's received orders within the return period (7 days from receipt, 14 for pre-orders)",
    body: ReturnBody,
    responses: { 200: { description: 'The request id, or why not', schema: ReturnCreateResponse } },
    handler: async (session) => {
      const { order_id: orderId, items = {}, reason = '' } = session.body;
      if (reason.trim().length > REASON_MAX_LENGTH)
        return { success: false, error: ACCOUNT_TEXT.longReason } satisfies ReturnCreateResponse;
      const made = await createReturnRequest({
        db,
        customerId: session.customerId,
        orderId,
        items: Object.entries(items).map(([offerId, quantity]) => ({ offerId: Number(offerId), quantity })),
        reason: reason.trim(),
      });
      if (made.ok) return { success: true, id: made.id } satisfies ReturnCreateResponse;
      const error = {
        not_found: ACCOUNT_TEXT.orderNotFound,
        not_delivered: ACCOUNT_TEXT.notDelivered,
        expired: ACCOUNT_TEXT.returnExpired,
        too_many: ACCOUNT_TEXT.returnTooMany,
        nothing: ACCOUNT_TEXT.returnNothing,
      }[made.reason];
      return { success: false, error } satisfies ReturnCreateResponse;
    },
  });

  customerRoute(app, auth, {
    url: '/api/personal/subscribe.php',
    summary: "Set the customer's newsletter flag",
    body: SubscribeBody,
    responses: { 200: { description: 'The flag as set', schema: SubscribeResponse } },
    handler: async (session) => {
      const subscribed = session.body.active === 'yes';
      await setSubscribed({ db, customerId: session.customerId, subscribed });
      return { success: true, subscribed } satisfies SubscribeResponse;
    },
  });
}
