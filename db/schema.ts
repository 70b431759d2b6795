import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { STOCK_ACTOR_KINDS, STOCK_REASONS } from '~/core/stock-ledger';
import type { OneCOrderInfo } from '~/core/commerceml-orders';

// Money is stored as integer kopecks everywhere (price 32 000 RUB = 3_200_000).

const tsvector = customType<{ data: string }>({
  dataType() {
    return 'tsvector';
  },
});

export const sections = pgTable(
  'sections',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    url: text('url').notNull(),
    parentId: integer('parent_id'),
    sort: integer('sort').notNull().default(500),
    // 'category' holds products; 'new' and 'sale' are built from product flags (core/catalog-scope.ts).
    kind: text('kind', { enum: ['category', 'new', 'sale'] })
      .notNull()
      .default('category'),
    // 1C's group Ид (the 1C exchange, issue #31); null for sections made on the site.
    externalId: text('external_id'),
    // Shown in the header's mega menu (issue #30: staff choose); its children follow it.
    inMenu: boolean('in_menu').notNull().default(true),
  },
  (t) => [
    uniqueIndex('sections_code_uq').on(t.code),
    uniqueIndex('sections_url_uq').on(t.url),
    uniqueIndex('sections_external_id_uq').on(t.externalId),
  ],
);

export const products = pgTable(
  'products',
  {
    id: serial('id').primaryKey(),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    sectionId: integer('section_id')
      .notNull()
      .references(() => sections.id),
    kind: text('kind').notNull(),
    colorName: text('color_name').notNull(),
    colorCode: text('color_code').notNull(),
    colorHex: text('color_hex').notNull(),
    // Colour variants of one model share a group key.
    groupKey: text('group_key').notNull(),
    isNew: boolean('is_new').notNull().default(false),
    popularity: integer('popularity').notNull().default(0),
    priceKopecks: integer('price_kopecks').notNull(),
    oldPriceKopecks: integer('old_price_kopecks'),
    article: text('article').notNull(),
    // SPEC §3 PROPERTIES other than photos: [{ code, name, value, description? }]
    properties: jsonb('properties').$type<ProductProperty[]>().notNull().default([]),
    active: boolean('active').notNull().default(true),
    // Parcel weight in grams for the delivery calculator; null: the default of its kind (core/delivery.ts).
    weightGrams: integer('weight_grams'),
    // Gift certificates are products of their own (content/pages/podarochnye-sertifikaty.md): the
    // price is the nominal; 'electronic' ones get a code by e-mail after payment, 'plastic' ones
    // when staff ship them. Null for everything else.
    certificate: text('certificate', { enum: ['electronic', 'plastic'] }),
    // 1C's product Ид (a GUID; the 1C exchange, issue #31); null for products made on the site.
    externalId: text('external_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    // Size filter ids of the offers that can be ordered now (in stock or pre-order), kept
    // in step with offers by whoever changes stock, so the size facet needs no join.
    sizes: text('sizes')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    // Full-text search in Russian: name and article weigh most, then colour, then description.
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      sql`setweight(to_tsvector('russian', translate(coalesce(name, ''), 'ёЁ', 'еЕ')), 'A') || setweight(to_tsvector('simple', coalesce(article, '')), 'A') || setweight(to_tsvector('russian', translate(coalesce(color_name, ''), 'ёЁ', 'еЕ')), 'B') || setweight(to_tsvector('russian', translate(coalesce(description, ''), 'ёЁ', 'еЕ')), 'D')`,
    ),
    // What the first search tier matches: name, article and colour only, with its own small index.
    nameVector: tsvector('name_vector').generatedAlwaysAs(
      sql`to_tsvector('russian', translate(coalesce(name, '') || ' ' || coalesce(color_name, ''), 'ёЁ', 'еЕ')) || to_tsvector('simple', coalesce(article, ''))`,
    ),
  },
  (t) => [
    uniqueIndex('products_slug_uq').on(t.slug),
    uniqueIndex('products_external_id_uq').on(t.externalId),
    // A full 1C package's finishing steps read 1C ids by range in byte order (models/exchange.server.ts).
    index('products_external_id_c_idx').on(sql`${t.externalId} collate "C"`),
    index('products_section_idx').on(t.sectionId),
    index('products_group_idx').on(t.groupKey),
    // Search results are ordered by popularity (api/search.server.ts). Listings need no SQL
    // index: they come from the in-memory catalogue index (api/catalog-index.server.ts).
    index('products_popular_idx').on(sql`${t.popularity} desc`, t.id),
    // The four GIN indexes here have gin_pending_list_limit = 256 kB (migration 0032: short flushes).
    index('products_search_idx').using('gin', t.searchVector),
    index('products_name_search_idx').using('gin', t.nameVector),
    index('products_article_idx').on(sql`lower(${t.article}) text_pattern_ops`),
    // Part of an article typed alone ('00081'): a like '%…%' the trigram index answers.
    index('products_article_trgm_idx').using('gin', sql`lower(${t.article}) gin_trgm_ops`),
    // The back office's product list searches part of a name ('пальто ав'): ilike '%…%' on the trigrams.
    index('products_name_trgm_idx').using('gin', sql`lower(${t.name}) gin_trgm_ops`),
    // 0 ₽ only for the hidden gift garment cover (core/basket.ts GIFT_COVER_OFFER_ID).
    check('products_price_nonnegative', sql`${t.priceKopecks} >= 0`),
    check('products_old_price', sql`${t.oldPriceKopecks} is null or ${t.oldPriceKopecks} > ${t.priceKopecks}`),
  ],
);

// The sections a product stands in besides its own (products.section_id, which makes its address):
// its listings show it there too (models/catalog-index.server.ts). Issue #30.
export const productSections = pgTable(
  'product_sections',
  {
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    sectionId: integer('section_id')
      .notNull()
      .references(() => sections.id),
  },
  (t) => [primaryKey({ columns: [t.productId, t.sectionId] }), index('product_sections_section_idx').on(t.sectionId)],
);

export interface ProductProperty {
  code: string;
  name: string;
  value: string;
  description?: string;
}

export const offers = pgTable(
  'offers',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    sizeType: text('size_type', { enum: ['clothes', 'shoes', 'none'] }).notNull(),
    size: text('size').notNull(),
    intlSize: text('intl_size'),
    sort: integer('sort').notNull().default(0),
    priceKopecks: integer('price_kopecks').notNull(),
    oldPriceKopecks: integer('old_price_kopecks'),
    quantity: integer('quantity').notNull().default(0),
    preorder: boolean('preorder').notNull().default(false),
    // 1C's offer Ид, '<product GUID>#<characteristic GUID>' (or the product's GUID alone); null for offers made on the site.
    externalId: text('external_id'),
    // The size's barcode (EAN-13 or the shop's own), entered in the back office; unique when set.
    barcode: text('barcode'),
  },
  (t) => [
    uniqueIndex('offers_product_size_uq').on(t.productId, t.size),
    uniqueIndex('offers_barcode_uq')
      .on(t.barcode)
      .where(sql`${t.barcode} is not null`),
    uniqueIndex('offers_external_id_uq').on(t.externalId),
    // A full 1C package's finishing steps read 1C ids by range in byte order (models/exchange.server.ts).
    index('offers_external_id_c_idx').on(sql`${t.externalId} collate "C"`),
    check('offers_quantity_nonnegative', sql`${t.quantity} >= 0`),
    check('offers_price_nonnegative', sql`${t.priceKopecks} >= 0`),
  ],
);

export const productPhotos = pgTable(
  'product_photos',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    // Path under the media root, e.g. 'products/palto-aurora-chernyj/1.jpg'.
    path: text('path').notNull(),
    alt: text('alt').notNull().default(''),
    width: integer('width').notNull().default(1200),
    height: integer('height').notNull().default(1600),
    // For generated demo photos: how to draw the original when it is not on disk yet.
    art: jsonb('art'),
    // A picture from 1C (issue #31): the SHA-256 of the file 1C sent, so the same picture sent
    // again is not processed again (and its path, which the image cache is keyed by, stays).
    sourceHash: text('source_hash'),
  },
  (t) => [
    uniqueIndex('product_photos_product_pos_uq').on(t.productId, t.position),
    uniqueIndex('product_photos_path_uq').on(t.path),
  ],
);

export const customers = pgTable(
  'customers',
  {
    id: serial('id').primaryKey(),
    // Digits only, with country code: '79990000000'.
    phone: text('phone').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    secondName: text('second_name').notNull().default(''),
    email: text('email').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    // SPEC §3 userMain: the customer's basket lives here (the guest's lives in cookies) so it
    // follows them to another device: 'id:qty,...' and the pre-orders as 'id:qty,...'.
    cart: text('cart').notNull().default(''),
    preorders: text('preorders').notNull().default(''),
    // Raised with every saved change of the basket: a device whose copy is older loads the
    // server's basket instead of overwriting it.
    cartRev: integer('cart_rev').notNull().default(0),
    // Product ids, latest first (SPEC §4 Favourites, Views).
    wishlist: integer('wishlist')
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
    watched: integer('watched')
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
    // The newsletter toggle of the personal account (subscribe.php).
    subscribed: boolean('subscribed').notNull().default(false),
    // 'YYYY-MM-DD'; set once (content/pages/loyalty.md), for the birthday bonus.
    birthday: text('birthday'),
    // Blocked by staff (issue #29): no login, every session ended; the reason is staff's.
    blockedAt: timestamp('blocked_at', { withTimezone: true }),
    blockedReason: text('blocked_reason'),
  },
  (t) => [
    uniqueIndex('customers_phone_uq').on(t.phone),
    // An e-mail belongs to one customer (e-mail login finds the account by it), whatever its
    // letter case; '' (none given) may repeat. Migration 0014 resolved the duplicates made before.
    uniqueIndex('customers_email_uq')
      .on(sql`lower(${t.email})`)
      .where(sql`${t.email} <> ''`),
  ],
);

// A login: the signed `token` cookie carries this id, so logging out (or out everywhere) revokes it.
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    userAgent: text('user_agent').notNull().default(''),
    ip: text('ip').notNull().default(''),
  },
  (t) => [index('sessions_customer_idx').on(t.customerId)],
);

// One-time login codes (SMS or e-mail): only a hash is kept; tries are counted before comparing.
export const authCodes = pgTable(
  'auth_codes',
  {
    id: serial('id').primaryKey(),
    channel: text('channel', { enum: ['phone', 'email'] }).notNull(),
    // Phone digits ('79990000000') or a lower-cased e-mail address.
    target: text('target').notNull(),
    codeHash: text('code_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    usedAt: timestamp('used_at', { withTimezone: true }),
    ip: text('ip').notNull().default(''),
  },
  (t) => [index('auth_codes_target_idx').on(t.channel, t.target, t.createdAt)],
);

// Fixed-window counters for limits that must hold across processes (code sends per phone, per
// IP, per number prefix, per day for the whole shop): one conditional upsert per hit.
export const rateCounters = pgTable(
  'rate_counters',
  {
    key: text('key').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] })],
);

export const addresses = pgTable(
  'addresses',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    // Free fields as the account form sends them (city, street, house, flat, postal_code, ...).
    fields: jsonb('fields').$type<Record<string, string>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('addresses_customer_idx').on(t.customerId)],
);

export const returnRequests = pgTable(
  'return_requests',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id),
    // [{ offerId, quantity }] of the order's lines being returned.
    items: jsonb('items').$type<{ offerId: number; quantity: number }[]>().notNull(),
    reason: text('reason').notNull().default(''),
    // 'new', 'approved' (refunds under way), 'refunded', 'rejected'.
    status: text('status').notNull().default('new'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    // Staff's word on the decision, and whether the delivery is refunded too (our error or a defect).
    decisionNote: text('decision_note'),
    refundDelivery: boolean('refund_delivery').notNull().default(false),
  },
  (t) => [index('return_requests_customer_idx').on(t.customerId), index('return_requests_order_idx').on(t.orderId)],
);

// Double opt-in (issue #26): a row is 'pending' until the link in its confirmation letter is
// followed; only 'confirmed' addresses get marketing letters. An unsubscribed row is kept (the
// link in an old letter still answers) and goes back to 'pending' with a new token if the address
// subscribes again.
export const newsletterSubscriptions = pgTable(
  'newsletter_subscriptions',
  {
    // Lower-cased address.
    email: text('email').primaryKey(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    status: text('status', { enum: ['pending', 'confirmed', 'unsubscribed'] })
      .notNull()
      .default('pending'),
    // Random, unguessable (256 bits): the confirmation and unsubscribe links carry it, no login.
    token: text('token').notNull(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    unsubscribedAt: timestamp('unsubscribed_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('newsletter_subscriptions_token_uq').on(t.token)],
);

export const orders = pgTable(
  'orders',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id').references(() => customers.id),
    // 'fast': one item ordered by a guest in one step; 'checkout': the full form.
    kind: text('kind', { enum: ['fast', 'checkout'] })
      .notNull()
      .default('checkout'),
    status: text('status').notNull(),
    // Who to call about the order: digits with country code, and the name given.
    phone: text('phone').notNull().default(''),
    customerName: text('customer_name').notNull().default(''),
    // The storefront's key for one submission: a repeat finds this order instead of making another.
    idempotencyKey: text('idempotency_key'),
    promoCode: text('promo_code'),
    discountKopecks: integer('discount_kopecks').notNull().default(0),
    // Free-form order form fields as the shopper sent them (name, city, street, ...).
    fields: jsonb('fields').$type<Record<string, string>>().notNull().default({}),
    itemsTotalKopecks: integer('items_total_kopecks').notNull(),
    deliveryCostKopecks: integer('delivery_cost_kopecks').notNull().default(0),
    // What the receipt adds up to: items less the promo and the bonuses, plus delivery.
    totalKopecks: integer('total_kopecks').notNull(),
    // Bonuses spent (content/pages/loyalty.md; spread over the lines as order_items.bonus_kopecks)
    // and the part paid with gift certificates. What is paid by card, in parts or on receipt is
    // total_kopecks - certificate_kopecks (core/order-money.ts amountDue).
    bonusKopecks: integer('bonus_kopecks').notNull().default(0),
    certificateKopecks: integer('certificate_kopecks').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    // When the shopper received it: the return period (content/pages/return.md) counts from here.
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    // Checkout (kind 'checkout'): payment and delivery as chosen, the contact e-mail for the receipt.
    paymentId: text('payment_id').notNull().default(''),
    email: text('email').notNull().default(''),
    // Delivery method id (shared/contract.ts DELIVERY_ID), city, the address as one line, the
    // pickup point as CDEK described it when ordered, expected dates (YYYY-MM-DD, Moscow), and
    // the note shown to the shopper (the outerwear trips).
    deliveryId: text('delivery_id'),
    deliveryCity: text('delivery_city').notNull().default(''),
    deliveryAddress: text('delivery_address').notNull().default(''),
    pickupPoint: jsonb('pickup_point').$type<Record<string, unknown>>(),
    // The cost was not known when ordering (calculator down, 'по договорённости'): staff confirm it.
    deliveryCostPending: boolean('delivery_cost_pending').notNull().default(false),
    deliveryDateFrom: text('delivery_date_from'),
    deliveryDateTo: text('delivery_date_to'),
    deliveryNote: text('delivery_note'),
    deliveryTrips: integer('delivery_trips').notNull().default(1),
    // The carrier's order (CDEK uuid) and track number, once registered.
    carrierOrderId: text('carrier_order_id'),
    trackNumber: text('track_number'),
    // What was actually paid: on receipt after a fitting, only for the items kept; online, the
    // verified payment's amount.
    paidKopecks: integer('paid_kopecks'),
    // Online payment: when it was verified, the provider's transaction, and until when an unpaid
    // order holds its stock (then it is released and cancelled).
    paidAt: timestamp('paid_at', { withTimezone: true }),
    paymentTransactionId: text('payment_transaction_id'),
    payUntil: timestamp('pay_until', { withTimezone: true }),
    // When 1C confirmed (mode=success) an order export holding this order: from then on its
    // units are in 1C's quantities (the 1C exchange, issue #31). Null: 1C has not got it yet.
    exchangeConfirmedAt: timestamp('exchange_confirmed_at', { withTimezone: true }),
    // 1C's numbers and dates of the order, its payment and its shipment, from the orders file 1C
    // sends back (type=sale&mode=import; core/commerceml-orders.ts). Null: 1C has sent none.
    exchange1c: jsonb('exchange_1c').$type<OneCOrderInfo>(),
  },
  (t) => [
    index('orders_customer_idx').on(t.customerId),
    uniqueIndex('orders_idempotency_key_uq').on(t.idempotencyKey),
    index('orders_promo_code_idx').on(t.promoCode),
    // The back office's orders list (issue #29, models/admin-orders.server.ts): newest first, by
    // status, and the text search over phone, e-mail and name (pg_trgm, as the article search).
    index('orders_created_idx').on(t.createdAt),
    index('orders_status_created_idx').on(t.status, t.createdAt),
    // The list's status + delivery filters, newest first (migration 0023, bench:admin).
    index('orders_status_delivery_created_idx').on(t.status, t.deliveryId, t.createdAt, t.id),
    index('orders_search_trgm_idx').using(
      'gin',
      sql`lower(${t.phone} || ' ' || ${t.email} || ' ' || ${t.customerName}) gin_trgm_ops`,
    ),
  ],
);

// Staff notes on an order (the back office's order page): added, never edited, each with its author.
export const orderNotes = pgTable(
  'order_notes',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    staffId: integer('staff_id'),
    authorLabel: text('author_label').notNull().default(''),
    text: text('text').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('order_notes_order_idx').on(t.orderId, t.id)],
);

export const orderItems = pgTable(
  'order_items',
  {
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    offerId: integer('offer_id')
      .notNull()
      .references(() => offers.id),
    // Snapshot of what was bought, so later catalogue edits do not rewrite history.
    title: text('title').notNull(),
    size: text('size').notNull(),
    color: text('color').notNull(),
    image: text('image').notNull().default(''),
    priceKopecks: integer('price_kopecks').notNull(),
    oldPriceKopecks: integer('old_price_kopecks'),
    // This line's share of the promo discount (the shares add up to the order's discount).
    discountKopecks: integer('discount_kopecks').notNull().default(0),
    // This line's share of the bonuses spent (the shares add up to orders.bonus_kopecks).
    bonusKopecks: integer('bonus_kopecks').notNull().default(0),
    quantity: integer('quantity').notNull(),
    // Taken back by approved returns (never more than quantity): a line is returned once.
    returnedQuantity: integer('returned_quantity').notNull().default(0),
    isPreorder: boolean('is_preorder').notNull().default(false),
    isGift: boolean('is_gift').notNull().default(false),
    // The fitting at the door (Moscow courier): how many were kept and refused; null until then.
    keptQuantity: integer('kept_quantity'),
    refusedQuantity: integer('refused_quantity'),
  },
  (t) => [
    primaryKey({ columns: [t.orderId, t.offerId, t.isPreorder] }),
    check('order_items_quantity_positive', sql`${t.quantity} > 0`),
    check('order_items_returned', sql`${t.returnedQuantity} between 0 and ${t.quantity}`),
  ],
);

// Every status an order has been in, with when and why: the account shows it as a history.
export const orderStatusHistory = pgTable(
  'order_status_history',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    status: text('status').notNull(),
    note: text('note'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('order_status_history_order_idx').on(t.orderId, t.id)],
);

// Work done after a commit (notices, carrier registration, releases): written in the same
// transaction as what causes it, claimed by any process with `for update skip locked`
// (DESIGN.md's scheduler), retried with back-off, kept when done for the record.
export const jobs = pgTable(
  'jobs',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    doneAt: timestamp('done_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('jobs_due_idx')
      .on(t.runAt)
      .where(sql`${t.doneAt} is null`),
  ],
);

// Every message a job sent (SMS, e-mail), recorded under its idempotency key (unique per job
// subject such as the order, kind and recipient; models/sent-messages.server.ts): a job run
// again after a crash or a half-failed run skips what already went out. A row with no sent_at is
// a send in progress (claimed at claimed_at); one whose claim is old was cut short and is re-sent.
export const sentMessages = pgTable('sent_messages', {
  key: text('key').primaryKey(),
  channel: text('channel', { enum: ['sms', 'mail'] }).notNull(),
  tag: text('tag'),
  providerId: text('provider_id'),
  claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull().defaultNow(),
  sentAt: timestamp('sent_at', { withTimezone: true }),
});

// Every notification or answer a payment provider gave about an order, stored once: unique per
// provider, transaction and kind, so a replayed notification changes nothing (DESIGN.md).
export const paymentEvents = pgTable(
  'payment_events',
  {
    id: serial('id').primaryKey(),
    provider: text('provider').notNull(),
    transactionId: text('transaction_id').notNull(),
    // 'check', 'pay', 'fail', 'refund', 'confirm', 'cancel', or 'verified' (the server asked the provider).
    kind: text('kind').notNull(),
    orderId: integer('order_id').references(() => orders.id),
    amountKopecks: integer('amount_kopecks'),
    // What the shop did with it: 'accepted', 'refused:<reason>', 'paid', 'late:restored', 'late:refunded'...
    outcome: text('outcome').notNull().default(''),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payment_events_uq').on(t.provider, t.transactionId, t.kind),
    index('payment_events_order_idx').on(t.orderId),
  ],
);

// Gift certificates (content/pages/podarochnye-sertifikaty.md): issued once per bought unit
// (issue_key), 12 months valid, a balance that never goes below zero; every movement is a row of
// certificate_moves.
export const giftCertificates = pgTable(
  'gift_certificates',
  {
    id: serial('id').primaryKey(),
    // 16 digits, the last a Luhn check digit (core/gift-certificates.ts); shown as 4 groups.
    code: text('code').notNull(),
    kind: text('kind', { enum: ['electronic', 'plastic'] }).notNull(),
    nominalKopecks: integer('nominal_kopecks').notNull(),
    balanceKopecks: integer('balance_kopecks').notNull(),
    // The order it was bought in and the line, and which unit of that line: 'order:12:offer:5:1'.
    orderId: integer('order_id').references(() => orders.id),
    offerId: integer('offer_id'),
    issueKey: text('issue_key').notNull(),
    // Where the electronic card goes, and when it went.
    email: text('email').notNull().default(''),
    mailedAt: timestamp('mailed_at', { withTimezone: true }),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    // Voided by staff (issue #30): the balance went to 0 with a 'void' move; it never pays again.
    voidedAt: timestamp('voided_at', { withTimezone: true }),
    voidReason: text('void_reason'),
    // Issued by hand by customer service (no order): who, and the note they gave.
    issuedByStaffId: integer('issued_by_staff_id'),
    issueNote: text('issue_note'),
  },
  (t) => [
    uniqueIndex('gift_certificates_code_uq').on(t.code),
    index('gift_certificates_issued_idx').on(t.issuedAt, t.id),
    uniqueIndex('gift_certificates_issue_key_uq').on(t.issueKey),
    index('gift_certificates_order_idx').on(t.orderId),
    check('gift_certificates_balance', sql`${t.balanceKopecks} >= 0 and ${t.balanceKopecks} <= ${t.nominalKopecks}`),
  ],
);

// The certificate ledger: + issue, - redeem (an order paid with it), + release (that order was
// cancelled unpaid), + refund (a return of what it paid for). The balance is the sum.
export const certificateMoves = pgTable(
  'certificate_moves',
  {
    id: serial('id').primaryKey(),
    certificateId: integer('certificate_id')
      .notNull()
      .references(() => giftCertificates.id),
    // 'void': the certificate itself was returned (bought back whole), its balance gone.
    // 'fitting': the part the courier's fitting did not use, back onto the certificate.
    kind: text('kind', { enum: ['issue', 'redeem', 'release', 'refund', 'void', 'fitting'] }).notNull(),
    amountKopecks: integer('amount_kopecks').notNull(),
    orderId: integer('order_id').references(() => orders.id),
    returnRequestId: integer('return_request_id').references(() => returnRequests.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('certificate_moves_certificate_idx').on(t.certificateId, t.id),
    index('certificate_moves_order_idx').on(t.orderId),
  ],
);

// The loyalty programme (content/pages/loyalty.md). Bonuses come in lots, each with its own
// validity (a purchase's 5 %, the birthday's 2 000); spending takes from the lots that expire
// first, and a return puts spent bonuses back into the lots they came from, "within the original
// term". One bonus is one rouble; amounts are kopecks, always whole roubles.
export const bonusLots = pgTable(
  'bonus_lots',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['purchase', 'birthday', 'manual'] }).notNull(),
    // What it is for, once: 'order:12' (the purchase's accrual), 'birthday:2026'.
    lotKey: text('lot_key').notNull(),
    orderId: integer('order_id').references(() => orders.id),
    amountKopecks: integer('amount_kopecks').notNull(),
    remainingKopecks: integer('remaining_kopecks').notNull(),
    availableFrom: timestamp('available_from', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('bonus_lots_key_uq').on(t.customerId, t.lotKey),
    index('bonus_lots_customer_idx').on(t.customerId, t.expiresAt),
    check('bonus_lots_remaining', sql`${t.remainingKopecks} >= 0 and ${t.remainingKopecks} <= ${t.amountKopecks}`),
  ],
);

// Every change of a customer's bonuses, for the account's history: + credit/birthday/restore/
// release, - spend/expire/cancel. A move touching a lot names it.
export const bonusMoves = pgTable(
  'bonus_moves',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    lotId: integer('lot_id').references(() => bonusLots.id),
    kind: text('kind', {
      enum: ['credit', 'birthday', 'spend', 'release', 'restore', 'expire', 'cancel', 'manual'],
    }).notNull(),
    amountKopecks: integer('amount_kopecks').notNull(),
    orderId: integer('order_id').references(() => orders.id),
    returnRequestId: integer('return_request_id').references(() => returnRequests.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('bonus_moves_customer_idx').on(t.customerId, t.id), index('bonus_moves_order_idx').on(t.orderId)],
);

// Money given back for an approved return, one row per means (card, pay in parts, certificate,
// bonuses, by bank transfer): written with the approval, then settled by a job, once.
export const refunds = pgTable(
  'refunds',
  {
    id: serial('id').primaryKey(),
    returnRequestId: integer('return_request_id')
      .notNull()
      .references(() => returnRequests.id),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id),
    means: text('means', {
      enum: ['cloudpayments', 'dolyami', 'yandex-split', 'certificate', 'bonus', 'transfer'],
    }).notNull(),
    amountKopecks: integer('amount_kopecks').notNull(),
    // 'pending' until the provider confirmed (or the ledger was written), then 'done'; 'manual'
    // for a bank transfer staff make by hand (cash on delivery).
    status: text('status', { enum: ['pending', 'done', 'manual'] })
      .notNull()
      .default('pending'),
    providerRef: text('provider_ref'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    doneAt: timestamp('done_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('refunds_return_means_uq').on(t.returnRequestId, t.means),
    index('refunds_order_idx').on(t.orderId),
    check('refunds_amount_positive', sql`${t.amountKopecks} > 0`),
  ],
);

export const promoCodes = pgTable(
  'promo_codes',
  {
    // Upper case, as shoppers' input is normalised (core/promo.ts normalizePromoCode).
    code: text('code').primaryKey(),
    kind: text('kind', { enum: ['percent', 'fixed'] }).notNull(),
    percent: integer('percent'),
    amountKopecks: integer('amount_kopecks'),
    minBasketKopecks: integer('min_basket_kopecks').notNull().default(0),
    validFrom: timestamp('valid_from', { withTimezone: true }),
    validTo: timestamp('valid_to', { withTimezone: true }),
    totalLimit: integer('total_limit'),
    perCustomerLimit: integer('per_customer_limit'),
    // Orders placed with the code; raised in the order's transaction only while under total_limit.
    usedCount: integer('used_count').notNull().default(0),
    excludeSale: boolean('exclude_sale').notNull().default(true),
    active: boolean('active').notNull().default(true),
    // Staff-made codes (issue #30): when it was made, and when a manager expired it by hand.
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiredAt: timestamp('expired_at', { withTimezone: true }),
  },
  (t) => [
    check('promo_codes_percent', sql`${t.kind} <> 'percent' or (${t.percent} between 1 and 100)`),
    check('promo_codes_amount', sql`${t.kind} <> 'fixed' or ${t.amountKopecks} > 0`),
    check(
      'promo_codes_used',
      sql`${t.usedCount} >= 0 and (${t.totalLimit} is null or ${t.usedCount} <= ${t.totalLimit})`,
    ),
  ],
);

export const waitingList = pgTable(
  'waiting_list',
  {
    id: serial('id').primaryKey(),
    offerId: integer('offer_id')
      .notNull()
      .references(() => offers.id, { onDelete: 'cascade' }),
    phone: text('phone').notNull(),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    // Set, in the stock change's transaction, when the back-in-stock SMS is due: once per entry.
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
  },
  // One open entry per phone and size: joining again changes nothing.
  (t) => [
    uniqueIndex('waiting_list_open_uq')
      .on(t.offerId, t.phone)
      .where(sql`${t.notifiedAt} is null`),
  ],
);

// The stock ledger (core/stock-ledger.ts, models/stock.server.ts): one row for every change of an
// offer's quantity, written in the change's own transaction under the offer's row lock. An
// offer's quantity is always the sum of its moves (its opening 'seed' move included), and each
// move's quantity_after is the one before it plus its delta (`npm run stock -- --verify`).
export const stockMoves = pgTable(
  'stock_moves',
  {
    id: serial('id').primaryKey(),
    offerId: integer('offer_id')
      .notNull()
      .references(() => offers.id, { onDelete: 'cascade' }),
    delta: integer('delta').notNull(),
    quantityAfter: integer('quantity_after').notNull(),
    reason: text('reason', { enum: STOCK_REASONS }).notNull(),
    // What the move belongs to: an order, a return request, a 1C import (its table comes with the
    // exchange). The order's key is checked at commit (DEFERRABLE INITIALLY DEFERRED, migration
    // 0020, made when placeOrder took the stock before writing the order's row; it now writes it first).
    orderId: integer('order_id').references(() => orders.id),
    returnRequestId: integer('return_request_id').references(() => returnRequests.id),
    importId: integer('import_id').references(() => exchangeImports.id),
    // Who: a customer (null id: a guest), a staff member (null id: the staff token), or the shop itself.
    actorKind: text('actor_kind', { enum: STOCK_ACTOR_KINDS }).notNull(),
    actorId: integer('actor_id'),
    note: text('note'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('stock_moves_offer_idx').on(t.offerId, t.id),
    index('stock_moves_order_idx').on(t.orderId),
    check('stock_moves_quantity_after_nonnegative', sql`${t.quantityAfter} >= 0`),
    check('stock_moves_actor', sql`${t.actorKind} <> 'system' or ${t.actorId} is null`),
  ],
);

export const redirects = pgTable('redirects', {
  // Lower-case path in slash form, e.g. '/sale/'.
  fromPath: text('from_path').primaryKey(),
  // A path on this site or an absolute http(s) URL.
  toUrl: text('to_url').notNull(),
  status: integer('status').notNull().default(301),
  // Bumped on every staff edit: a save carrying an older one is refused (two staff at once).
  version: integer('version').notNull().default(1),
});

export const pageMeta = pgTable('page_meta', {
  // Path in slash form ('/about/'; the root is '/').
  path: text('path').primaryKey(),
  title: text('title').notNull(),
  description: text('description').notNull(),
  keywords: text('keywords').notNull(),
  seoBottom: text('seo_bottom'),
  seoDescription: text('seo_description'),
  // 1 until staff first edit the row: the seed refreshes from content/page-meta.ts only those.
  version: integer('version').notNull().default(1),
});

// Small key/value facts about this database (seed version and size).
export const appState = pgTable('app_state', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

// The back office (docs/back-office.md, decision 012). Staff are apart from customers: their own
// table, sessions and login (password, then a TOTP code), and a role naming what they may do
// (core/staff-roles.ts).
export const staff = pgTable(
  'staff',
  {
    id: serial('id').primaryKey(),
    // Stored trimmed and lower-cased; unique whatever the letter case.
    email: text('email').notNull(),
    name: text('name').notNull().default(''),
    role: text('role', { enum: ['admin', 'manager', 'warehouse', 'content', 'exchange'] }).notNull(),
    // argon2id (PHC string); null until the one-time link has set it.
    passwordHash: text('password_hash'),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }),
    // The TOTP key, encrypted (AES-256-GCM under a key derived from AUTH_SECRET); null until enrolled.
    totpSecret: text('totp_secret'),
    // The key shown on the enrolment page, kept (encrypted) until a code from it is entered.
    totpPendingSecret: text('totp_pending_secret'),
    // The last 30-second step whose code was accepted: a code of that step or an earlier one is refused (replay).
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    disabled: boolean('disabled').notNull().default(false),
    // The one-time link (SHA-256 of its token): 'setup' sets the password and the authenticator,
    // 'totp' enrols a new authenticator after an admin's reset (the password is asked too).
    setupTokenHash: text('setup_token_hash'),
    setupPurpose: text('setup_purpose', { enum: ['setup', 'totp'] }),
    setupExpiresAt: timestamp('setup_expires_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('staff_email_uq').on(sql`lower(${t.email})`),
    uniqueIndex('staff_setup_token_uq').on(t.setupTokenHash),
    check('staff_role', sql`${t.role} in ('admin', 'manager', 'warehouse', 'content', 'exchange')`),
    check('staff_setup_purpose', sql`${t.setupPurpose} is null or ${t.setupPurpose} in ('setup', 'totp')`),
  ],
);

// A staff login: the cookie carries a random token, this row keeps only its SHA-256. 'password'
// rows are half-way (the password was right, the code is awaited); 'active' ones are sessions.
export const staffSessions = pgTable(
  'staff_sessions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tokenHash: text('token_hash').notNull(),
    staffId: integer('staff_id')
      .notNull()
      .references(() => staff.id),
    stage: text('stage', { enum: ['password', 'active'] }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    // When the second factor was passed: the absolute timeout counts from here.
    authenticatedAt: timestamp('authenticated_at', { withTimezone: true }),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    ip: text('ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
    totpFailures: integer('totp_failures').notNull().default(0),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    // 'logout', 'idle', 'expired', 'disabled', 'password', 'totp', 'admin', 'replaced', 'failures'.
    endReason: text('end_reason'),
  },
  (t) => [
    uniqueIndex('staff_sessions_token_uq').on(t.tokenHash),
    index('staff_sessions_staff_idx').on(t.staffId),
    check('staff_sessions_stage', sql`${t.stage} in ('password', 'active')`),
  ],
);

// Who changed what, written in the change's own transaction; the application only inserts
// (a trigger refuses updates and deletes).
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    // 'staff' (staffId set), 'script' (the staff scripts through STAFF_TOKEN) or 'system' (jobs).
    actorKind: text('actor_kind', { enum: ['staff', 'script', 'system'] }).notNull(),
    staffId: integer('staff_id').references(() => staff.id),
    // The staff member's e-mail at the time, or the script's name ('npm run stock').
    actorLabel: text('actor_label').notNull().default(''),
    sessionId: bigint('session_id', { mode: 'number' }),
    ip: text('ip').notNull().default(''),
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id').notNull().default(''),
    before: jsonb('before'),
    after: jsonb('after'),
    reason: text('reason'),
    requestId: text('request_id').notNull().default(''),
  },
  (t) => [
    index('audit_events_at_idx').on(t.at),
    index('audit_events_entity_idx').on(t.entityType, t.entityId, t.at),
    index('audit_events_staff_idx').on(t.staffId, t.at),
    index('audit_events_action_idx').on(t.action, t.at),
    check(
      'audit_events_actor',
      sql`(${t.actorKind} = 'staff') = (${t.staffId} is not null) and ${t.actorKind} in ('staff', 'script', 'system')`,
    ),
  ],
);

// Admin state changes by Idempotency-Key: the first answer is kept and a repeat gets it again.
// The row is written in the change's transaction, so a key is taken exactly when its change is.
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    // 'staff:<id>' or 'script': one member's keys never meet another's.
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    staffId: integer('staff_id').references(() => staff.id),
    route: text('route').notNull(),
    // SHA-256 of the method, route, path parameters and body: a key sent again with another body is refused.
    requestHash: text('request_hash').notNull(),
    status: integer('status').notNull(),
    body: jsonb('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);

// Product reviews (issue #32, core/reviews.ts, docs/reviews.md): one per order line (order, offer,
// pre-order flag: the order line's key), written by the customer who bought and kept it. Only
// 'published' rows not withdrawn count in a product's rating and show on its page; a return
// approved for the whole line sets withdrawn_at (models/reviews.server.ts).
export const reviews = pgTable(
  'reviews',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    offerId: integer('offer_id').notNull(),
    isPreorder: boolean('is_preorder').notNull().default(false),
    // 'pending', 'published', 'rejected' (core/reviews.ts REVIEW_STATUSES).
    status: text('status').notNull(),
    rating: integer('rating').notNull(),
    // 'small' (маломерит), 'true' (в размер), 'large' (большемерит).
    fit: text('fit').notNull(),
    // The size bought, copied from the order line (never typed).
    size: text('size').notNull(),
    text: text('text').notNull(),
    heightCm: integer('height_cm'),
    usualSize: text('usual_size'),
    // The customer's first name when written (core/reviews.ts authorName).
    authorName: text('author_name').notNull(),
    helpfulCount: integer('helpful_count').notNull().default(0),
    photoCount: integer('photo_count').notNull().default(0),
    rejectReason: text('reject_reason'),
    resendCount: integer('resend_count').notNull().default(0),
    staffReply: text('staff_reply'),
    staffReplyAt: timestamp('staff_reply_at', { withTimezone: true }),
    // When staff last decided (published or rejected); null: in the moderation queue.
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    // The last time the customer sent it (created or resent): the daily cap counts these.
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('reviews_line_uq').on(t.orderId, t.offerId, t.isPreorder),
    index('reviews_product_idx').on(t.productId, t.status),
    index('reviews_customer_sent_idx').on(t.customerId, t.sentAt),
    index('reviews_queue_idx').on(t.checkedAt, t.createdAt),
    check('reviews_rating_range', sql`${t.rating} between 1 and 5`),
    check('reviews_fit', sql`${t.fit} in ('small', 'true', 'large')`),
    check('reviews_status', sql`${t.status} in ('pending', 'published', 'rejected')`),
  ],
);

// A review's photos, in order: files under the media root (reviews/<random>.jpg), re-encoded by
// the image pipeline on upload (server/review-photos.server.ts) and resized by /img like any photo.
export const reviewPhotos = pgTable(
  'review_photos',
  {
    id: serial('id').primaryKey(),
    reviewId: integer('review_id')
      .notNull()
      .references(() => reviews.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    path: text('path').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
  },
  (t) => [
    uniqueIndex('review_photos_review_pos_uq').on(t.reviewId, t.position),
    uniqueIndex('review_photos_path_uq').on(t.path),
  ],
);

// "Помог отзыв": one vote per customer and review (the "most helpful" sort counts them).
export const reviewVotes = pgTable(
  'review_votes',
  {
    reviewId: integer('review_id')
      .notNull()
      .references(() => reviews.id, { onDelete: 'cascade' }),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.reviewId, t.customerId] })],
);

// The 1C exchange (issue #31, docs/exchange-1c.md). Everything 1C's calls need between them lives
// here and in DATA_DIR/exchange/<session id>/, never in a process's memory: a restart or another
// process behind the load balancer carries on the same exchange.

// One exchange session: opened by mode=checkauth (HTTP Basic with a staff account of role
// 'exchange'); 1C sends its cookie (the token, of which only the SHA-256 is kept) on every later call.
export const exchangeSessions = pgTable(
  'exchange_sessions',
  {
    id: serial('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    staffId: integer('staff_id')
      .notNull()
      .references(() => staff.id),
    // 'catalog' or 'sale' (the `type` of checkauth).
    type: text('type', { enum: ['catalog', 'sale'] }).notNull(),
    ip: text('ip').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('exchange_sessions_token_uq').on(t.tokenHash),
    check('exchange_sessions_type', sql`${t.type} in ('catalog', 'sale')`),
  ],
);

// One file's import (mode=import&filename=…), repeated by 1C while the answer is 'progress'. The
// first call checks and splits the file into steps (DATA_DIR/exchange/<session>/<file>.steps/);
// each later call applies the next step in one transaction together with `step` (the position),
// so a step is committed whole or not at all and a restart carries on from the next one.
export const exchangeImports = pgTable(
  'exchange_imports',
  {
    id: serial('id').primaryKey(),
    sessionId: integer('session_id')
      .notNull()
      .references(() => exchangeSessions.id),
    filename: text('filename').notNull(),
    // 'applying' (steps left), 'done', 'failed' (error says why; nothing of the file was written).
    status: text('status', { enum: ['applying', 'done', 'failed'] }).notNull(),
    // What the file is: 'import' (catalogue) or 'offers'; whether it holds only changes.
    kind: text('kind', { enum: ['import', 'offers', 'prices', 'rests', 'zip', 'orders'] }),
    onlyChanges: boolean('only_changes').notNull().default(false),
    step: integer('step').notNull().default(0),
    steps: integer('steps').notNull().default(0),
    // Created, updated, deactivated… as the steps add them up.
    counts: jsonb('counts').$type<Record<string, number>>().notNull().default({}),
    warnings: jsonb('warnings').$type<string[]>().notNull().default([]),
    error: text('error'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('exchange_imports_session_file_idx').on(t.sessionId, t.filename, t.id),
    check('exchange_imports_status', sql`${t.status} in ('applying', 'done', 'failed')`),
  ],
);

// An order export (type=sale&mode=query): the orders changed in (since, until]. 1C's mode=success
// confirms it; only a confirmed export moves the mark (the greatest confirmed `until`), so an
// export 1C did not get is sent again.
export const exchangeSaleExports = pgTable(
  'exchange_sale_exports',
  {
    id: serial('id').primaryKey(),
    sessionId: integer('session_id')
      .notNull()
      .references(() => exchangeSessions.id),
    since: timestamp('since', { withTimezone: true }),
    until: timestamp('until', { withTimezone: true }).notNull(),
    orderIds: integer('order_ids')
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    // Set aside by «Отправить заказы заново» in the back office: no longer the mark the next export starts from.
    resetAt: timestamp('reset_at', { withTimezone: true }),
  },
  (t) => [index('exchange_sale_exports_session_idx').on(t.sessionId, t.id)],
);

// Information pages and blog articles (issue #30 "The site's words"): staff edit their Markdown in
// the back office; content/pages and content/blog are the seed, read when the table is empty.
export const contentEntries = pgTable(
  'content_entries',
  {
    id: serial('id').primaryKey(),
    kind: text('kind', { enum: ['page', 'article'] }).notNull(),
    slug: text('slug').notNull(),
    title: text('title').notNull(),
    lead: text('lead').notNull().default(''),
    body: text('body').notNull().default(''),
    published: boolean('published').notNull().default(true),
    // An article's date as shown (and its order in the blog); pages have none.
    publishedOn: date('published_on', { mode: 'string' }),
    // The generated illustration (art kind and colour) or an uploaded photo under DATA_DIR.
    coverKind: text('cover_kind'),
    coverColor: text('cover_color'),
    coverPhoto: text('cover_photo'),
    // Catalogue section addresses an article links to, comma-separated.
    products: text('products').notNull().default(''),
    version: integer('version').notNull().default(1),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('content_entries_kind_slug_idx').on(t.kind, t.slug),
    check('content_entries_kind', sql`${t.kind} in ('page', 'article')`),
  ],
);

// Texts of the site staff change (the top banner, the home page's blocks, the shops, the stylist
// chat): one JSON value per key, seeded with today's texts.
export const siteSettings = pgTable('site_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  version: integer('version').notNull().default(1),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
// A catalogue file checked in the back office (issue #30 "Bulk work"): the plan its dry run made
// (core/catalogue-csv.ts), kept until staff confirm it. `fingerprint` is the state of the products
// the plan touches when it was made: a confirm whose products have changed since is refused.
// `appliedAt` set once: a plan is applied at most once.
export const catalogueImports = pgTable(
  'catalogue_imports',
  {
    id: serial('id').primaryKey(),
    staffId: integer('staff_id')
      .notNull()
      .references(() => staff.id),
    fileName: text('file_name').notNull().default(''),
    separator: text('separator').notNull(),
    fingerprint: text('fingerprint').notNull(),
    plan: jsonb('plan').notNull(),
    summary: jsonb('summary').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    appliedAt: timestamp('applied_at', { withTimezone: true }),
  },
  (t) => [index('catalogue_imports_staff_idx').on(t.staffId, t.id)],
);
