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
import type {
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
import { requireCustomer, tokenField } from './require-customer.server';
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
  change: z.object({ firstname: text(), lastname: text(), secondname: text(), email: text() }).optional(),
});
const AddressBody = z.object({
  token: tokenField(),
  id: idField().optional(),
  ...Object.fromEntries(ADDRESS_FIELDS.map((name) => [name, text()])),
}) as z.ZodType<
  { token?: string | undefined; id?: number | undefined } & Partial<Record<(typeof ADDRESS_FIELDS)[number], string>>
>;
const RemoveBody = z.object({ token: tokenField(), id: idField() });
const TokenOnly = z.object({ token: tokenField() });
const OrderDetailBody = z.object({ token: tokenField(), order_id: idField() });
const SubscribeBody = z.object({ token: tokenField(), active: z.preprocess(lastValue, z.enum(['yes', 'no'])) });
const ReturnBody = z.object({
  token: tokenField(),
  order_id: idField(),
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
    .optional(),
  reason: text(),
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

  app.post('/api/personal/profile_change.php', async (req, reply) => {
    const session = await requireCustomer(auth, ProfileChangeBody, req, reply);
    if (!session) return reply;
    const read = readProfileChange(session.body.change);
    if (!('change' in read)) return read;
    const updated = await updateProfile({ db, customerId: session.customerId, change: read.change });
    if (updated === 'email_taken')
      return { success: false, error: ACCOUNT_TEXT.emailTaken, field: 'email' } satisfies ProfileChangeResponse;
    const record = await getCustomer({ db, customerId: session.customerId });
    if (!record) return unauthorized(reply);
    return { success: true, profile: toUserInfo(record) } satisfies ProfileChangeResponse;
  });

  app.post('/api/personal/addresses.php', async (req, reply) => {
    const session = await requireCustomer(auth, TokenOnly, req, reply);
    if (!session) return reply;
    const rows = await listAddresses({ db, customerId: session.customerId });
    return { addresses: rows.map(toSavedAddress) } satisfies AddressesResponse;
  });

  app.post('/api/personal/address_add.php', async (req, reply) => {
    const session = await requireCustomer(auth, AddressBody, req, reply);
    if (!session) return reply;
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
  });

  app.post('/api/personal/address_remove.php', async (req, reply) => {
    const session = await requireCustomer(auth, RemoveBody, req, reply);
    if (!session) return reply;
    const removed = await removeAddress({ db, customerId: session.customerId, addressId: session.body.id });
    return (
      removed ? { success: true, id: session.body.id } : { success: false, error: ACCOUNT_TEXT.addressNotFound }
    ) satisfies AddressChangeResponse;
  });

  app.post('/api/personal/orders.php', async (req, reply) => {
    const session = await requireCustomer(auth, TokenOnly, req, reply);
    if (!session) return reply;
    const rows = await listCustomerOrders({ db, customerId: session.customerId });
    return { value: { orders: rows.map(toAccountOrder) } } satisfies OrdersResponse;
  });

  // Ours: one order with its delivery, payment and history (the order-placed page, the account).
  app.post('/api/personal/order_detail.php', async (req, reply) => {
    const session = await requireCustomer(auth, OrderDetailBody, req, reply);
    if (!session) return reply;
    const order = await getCustomerOrderDetail({ db, customerId: session.customerId, orderId: session.body.order_id });
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
  });

  app.post('/api/personal/returns.php', async (req, reply) => {
    const session = await requireCustomer(auth, TokenOnly, req, reply);
    if (!session) return reply;
    const rows = await listReturns({ db, customerId: session.customerId });
    return { value: { orders: rows.map(toAccountReturn) } } satisfies ReturnsResponse;
  });

  app.post('/api/personal/return_add.php', async (req, reply) => {
    const session = await requireCustomer(auth, ReturnBody, req, reply);
    if (!session) return reply;
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
  });

  app.post('/api/personal/subscribe.php', async (req, reply) => {
    const session = await requireCustomer(auth, SubscribeBody, req, reply);
    if (!session) return reply;
    const subscribed = session.body.active === 'yes';
    await setSubscribed({ db, customerId: session.customerId, subscribed });
    return { success: true, subscribed } satisfies SubscribeResponse;
  });
}
