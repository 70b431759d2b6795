import { z } from 'zod';

// The admin API's contract (issue #29, docs/back-office.md): every answer and body of
// /backend/admin/, one zod schema each. The server validates with these, the OpenAPI document is
// built from them, and the admin app takes their types (types only: zod stays out of its bundle).
//
// Lists answer `{ data, total }` and take `sort`, `order` (asc|desc), `offset` and `limit` (at
// most 100) beside their own filters. A state change is a named POST with an `Idempotency-Key`
// header; plain field edits are PATCH. Errors are `{ error, field? }` in Russian.

export const AdminError = z.object({
  error: z.string(),
  /** The body field the error is about, when it is about one. */
  field: z.string().optional(),
  /** Seconds to wait (a login cap). */
  retry_after: z.number().int().optional(),
});
export type AdminError = z.infer<typeof AdminError>;

const isoDate = z.string();

// --- Login -------------------------------------------------------------------------------------

export const LoginBody = z.object({ email: z.string().trim().min(1).max(254), password: z.string().min(1).max(1024) });
export const LoginCodeBody = z.object({ code: z.string().trim().min(1).max(20) });
/** The password was right: the code is awaited (the half-way cookie is set). */
export const LoginStepResponse = z.object({ next: z.literal('totp') });
export type LoginStepResponse = z.infer<typeof LoginStepResponse>;

export const StaffMe = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  role: z.string(),
  role_label: z.string(),
  permissions: z.array(z.string()),
  session: z.object({ authenticated_at: isoDate, expires_at: isoDate, idle_timeout_seconds: z.number().int() }),
});
export type StaffMe = z.infer<typeof StaffMe>;
export const MeResponse = z.object({ data: StaffMe });
export type MeResponse = z.infer<typeof MeResponse>;

export const OkResponse = z.object({ ok: z.literal(true) });

/** A staff member changes their own password: every session of theirs ends (log in again). */
export const PasswordChangeBody = z.object({
  current_password: z.string().min(1).max(1024),
  password: z.string().max(1024),
});

// --- One-time link: set the password and enrol the authenticator --------------------------------

export const SetupStartBody = z.object({ token: z.string().min(1).max(200) });
export const SetupFinishBody = z.object({
  token: z.string().min(1).max(200),
  /** 'setup': the new password; 'totp': the current one. */
  password: z.string().max(1024),
  code: z.string().trim().min(1).max(20),
});
export const SetupStartResponse = z.object({
  data: z.object({
    email: z.string(),
    name: z.string(),
    /** 'setup': a new account (password and authenticator); 'totp': a new authenticator after a reset. */
    purpose: z.enum(['setup', 'totp']),
    password_min: z.number().int(),
    password_max: z.number().int(),
    /** The key, base32, in groups of four for typing. */
    secret: z.string(),
    otpauth_uri: z.string(),
    /** The otpauth URI as a QR code, an SVG document. */
    qr_svg: z.string(),
  }),
});
export type SetupStartResponse = z.infer<typeof SetupStartResponse>;

// --- Staff ----------------------------------------------------------------------------------------

export const StaffItem = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  role: z.string(),
  role_label: z.string(),
  disabled: z.boolean(),
  password_set: z.boolean(),
  totp_enrolled: z.boolean(),
  /** A one-time link is out and good until `setup_expires_at`. */
  setup_pending: z.boolean(),
  setup_expires_at: isoDate.nullable(),
  created_at: isoDate,
});
export type StaffItem = z.infer<typeof StaffItem>;
export const StaffListResponse = z.object({ data: z.array(StaffItem), total: z.number().int() });
export type StaffListResponse = z.infer<typeof StaffListResponse>;
export const StaffOneResponse = z.object({ data: StaffItem });
export type StaffOneResponse = z.infer<typeof StaffOneResponse>;
/** A change that made a one-time link (a new account, an authenticator reset): shown once, kept nowhere. */
export const StaffLinkResponse = z.object({ data: StaffItem, setup_url: z.string(), setup_expires_at: isoDate });
export type StaffLinkResponse = z.infer<typeof StaffLinkResponse>;
export const StaffSessionsEndedResponse = z.object({ data: StaffItem, sessions_ended: z.number().int() });
export type StaffSessionsEndedResponse = z.infer<typeof StaffSessionsEndedResponse>;

export const StaffSession = z.object({
  id: z.number().int(),
  created_at: isoDate,
  authenticated_at: isoDate.nullable(),
  last_seen_at: isoDate,
  ip: z.string(),
  user_agent: z.string(),
  ended_at: isoDate.nullable(),
  end_reason: z.string().nullable(),
});
export const StaffSessionsResponse = z.object({ data: z.array(StaffSession), total: z.number().int() });
export type StaffSessionsResponse = z.infer<typeof StaffSessionsResponse>;

const reason = z.string().trim().max(500).optional();
export const StaffCreateBody = z.object({
  email: z.string().trim().min(1).max(254),
  name: z.string().trim().max(120).default(''),
  role: z.string(),
});
export const StaffPatchBody = z.object({ name: z.string().trim().max(120) });
export const StaffRoleBody = z.object({ role: z.string(), reason });
export const ReasonBody = z.object({ reason });

// --- Audit log ---------------------------------------------------------------------------------------

export const AuditItem = z.object({
  id: z.number().int(),
  at: isoDate,
  actor_kind: z.enum(['staff', 'script', 'system']),
  staff_id: z.number().int().nullable(),
  actor_label: z.string(),
  session_id: z.number().int().nullable(),
  ip: z.string(),
  action: z.string(),
  entity_type: z.string(),
  entity_id: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  reason: z.string().nullable(),
  request_id: z.string(),
});
export type AuditItem = z.infer<typeof AuditItem>;
export const AuditListResponse = z.object({ data: z.array(AuditItem), total: z.number().int() });
export type AuditListResponse = z.infer<typeof AuditListResponse>;
export const AuditActionsResponse = z.object({ data: z.array(z.object({ id: z.string(), name: z.string() })) });
export type AuditActionsResponse = z.infer<typeof AuditActionsResponse>;

// --- Staff scripts (STAFF_TOKEN, `npm run staff`) ---------------------------------------------------

/** `POST /staff/accounts/` (the script's path): the account and, for create and reset-totp, its link. */
export const ScriptStaffResponse = z.object({
  data: z
    .object({
      id: z.number().int(),
      email: z.string(),
      role: z.string(),
      disabled: z.boolean(),
      setup_url: z.string().nullable(),
      setup_expires_at: isoDate.nullable(),
      sessions_ended: z.number().int(),
    })
    .nullable(),
  errors: z.record(z.string(), z.string()),
  warnings: z.array(z.string()),
});
export type ScriptStaffResponse = z.infer<typeof ScriptStaffResponse>;

// --- Orders (issue #29: the list, one order, its actions, the dashboard) ---------------------------

export const AdminOrderItem = z.object({
  id: z.number().int(),
  created_at: isoDate,
  status: z.string(),
  status_label: z.string(),
  customer_id: z.number().int().nullable(),
  customer_name: z.string(),
  phone: z.string(),
  email: z.string(),
  city: z.string(),
  delivery_id: z.string().nullable(),
  payment_id: z.string(),
  /** paid | awaiting (online, not yet) | on_receipt | other | none (cancelled unpaid). */
  payment_state: z.enum(['paid', 'awaiting', 'on_receipt', 'other', 'none']),
  /** Absent for a role without orders:money (warehouse), as every money field of an order. */
  total_kopecks: z.number().int().optional(),
  track_number: z.string().nullable(),
});
export type AdminOrderItem = z.infer<typeof AdminOrderItem>;
export const AdminOrderListResponse = z.object({ data: z.array(AdminOrderItem), total: z.number().int() });
export type AdminOrderListResponse = z.infer<typeof AdminOrderListResponse>;

const kopecks = z.number().int();
export const AdminOrderDetail = AdminOrderItem.extend({
  kind: z.string(),
  address: z.string(),
  pickup_point: z.record(z.string(), z.unknown()).nullable(),
  carrier_order_id: z.string().nullable(),
  delivery_cost_pending: z.boolean(),
  delivered_at: isoDate.nullable(),
  paid_at: isoDate.nullable(),
  pay_until: isoDate.nullable(),
  promo_code: z.string().nullable(),
  fields: z.record(z.string(), z.string()),
  /** The one money breakdown (core/order-money.ts orderMoney), kopecks. */
  money: z
    .object({
      goods_kopecks: kopecks,
      sale_kopecks: kopecks,
      items_kopecks: kopecks,
      promo_kopecks: kopecks,
      bonus_kopecks: kopecks,
      delivery_kopecks: kopecks.nullable(),
      total_kopecks: kopecks,
      certificate_kopecks: kopecks,
      due_kopecks: kopecks,
      channel: z.string(),
      paid_online_kopecks: kopecks,
      on_receipt_kopecks: kopecks,
      collected_kopecks: kopecks.nullable(),
      rows: z.array(z.object({ key: z.string(), label: z.string(), kopecks: kopecks.nullable(), text: z.string() })),
    })
    .optional(),
  lines: z.array(
    z.object({
      offer_id: z.number().int(),
      title: z.string(),
      size: z.string(),
      color: z.string(),
      image: z.string(),
      price_kopecks: kopecks.optional(),
      discount_kopecks: kopecks.optional(),
      bonus_kopecks: kopecks.optional(),
      quantity: z.number().int(),
      returned_quantity: z.number().int(),
      kept_quantity: z.number().int().nullable(),
      refused_quantity: z.number().int().nullable(),
      preorder: z.boolean(),
      gift: z.boolean(),
    }),
  ),
  history: z.array(
    z.object({
      id: z.number().int(),
      status: z.string(),
      status_label: z.string(),
      note: z.string().nullable(),
      at: isoDate,
    }),
  ),
  payments: z
    .array(
      z.object({
        id: z.number().int(),
        provider: z.string(),
        kind: z.string(),
        amount_kopecks: kopecks.nullable(),
        outcome: z.string(),
        at: isoDate,
      }),
    )
    .optional(),
  refunds: z
    .array(
      z.object({
        id: z.number().int(),
        return_request_id: z.number().int(),
        means: z.string(),
        amount_kopecks: kopecks,
        status: z.string(),
        at: isoDate,
      }),
    )
    .optional(),
  returns: z.array(z.object({ id: z.number().int(), status: z.string(), reason: z.string(), at: isoDate })),
  certificate_moves: z
    .array(
      z.object({
        id: z.number().int(),
        certificate_id: z.number().int(),
        kind: z.string(),
        amount_kopecks: kopecks,
        at: isoDate,
      }),
    )
    .optional(),
  bonus_moves: z
    .array(z.object({ id: z.number().int(), kind: z.string(), amount_kopecks: kopecks, at: isoDate }))
    .optional(),
  messages: z.array(
    z.object({ key: z.string(), channel: z.string(), tag: z.string().nullable(), sent_at: isoDate.nullable() }),
  ),
  jobs: z.array(
    z.object({
      id: z.number().int(),
      kind: z.string(),
      run_at: isoDate,
      attempts: z.number().int(),
      done_at: isoDate.nullable(),
      last_error: z.string().nullable(),
    }),
  ),
  audit: z.array(AuditItem),
  notes: z.array(z.object({ id: z.number().int(), text: z.string(), author: z.string(), at: isoDate })),
  /** The actions its state allows now (the buttons): confirm, assemble, ship, deliver, cancel, mark_paid, fitting. */
  actions: z.array(z.string()),
});
export type AdminOrderDetail = z.infer<typeof AdminOrderDetail>;
export const AdminOrderOneResponse = z.object({ data: AdminOrderDetail });
export type AdminOrderOneResponse = z.infer<typeof AdminOrderOneResponse>;

export const OrderNoteBody = z.object({ text: z.string().trim().min(1, 'Напишите заметку').max(2000) });
export const OrderShipBody = z.object({
  track_number: z.string().trim().max(40).optional(),
  note: z.string().trim().max(500).optional(),
});
export const OrderFittingBody = z.object({
  lines: z
    .array(
      z.object({
        offer_id: z.number().int().min(1),
        kept: z.number().int().min(0).max(1000),
        refused: z.number().int().min(0).max(1000),
      }),
    )
    .min(1)
    .max(100),
});
/** Every order action answers the order as it is now. */
export const AdminOrderActionResponse = AdminOrderOneResponse;

export const AdminDashboardResponse = z.object({
  data: z.object({
    /** revenue_kopecks: absent for a role without orders:money (warehouse). */
    today: z.object({ orders: z.number().int(), revenue_kopecks: kopecks.optional() }),
    week: z.object({ orders: z.number().int(), revenue_kopecks: kopecks.optional() }),
    awaiting_payment: z.number().int(),
    to_confirm: z.number().int(),
    to_ship: z.number().int(),
    fittings_out: z.number().int(),
    returns_to_decide: z.number().int(),
    refunds_pending: z.number().int(),
    low_stock: z.array(
      z.object({
        offer_id: z.number().int(),
        product_id: z.number().int(),
        name: z.string(),
        size: z.string(),
        quantity: z.number().int(),
      }),
    ),
    waiting_lists: z.array(
      z.object({
        offer_id: z.number().int(),
        product_id: z.number().int(),
        name: z.string(),
        size: z.string(),
        waiting: z.number().int(),
      }),
    ),
  }),
});
export type AdminDashboardResponse = z.infer<typeof AdminDashboardResponse>;
// --- Stock (offers, their ledger, adjustments) -----------------------------------------------------------

export const StockOfferItem = z.object({
  id: z.number().int(),
  product_id: z.number().int(),
  article: z.string(),
  name: z.string(),
  section_id: z.number().int(),
  size: z.string(),
  quantity: z.number().int(),
  preorder: z.boolean(),
  /** Open waiting-list entries for this size. */
  waiting: z.number().int(),
});
export type StockOfferItem = z.infer<typeof StockOfferItem>;
export const StockOfferListResponse = z.object({ data: z.array(StockOfferItem), total: z.number().int() });
export type StockOfferListResponse = z.infer<typeof StockOfferListResponse>;
/** One offer, with its history from the audit log (stock set and moved by staff and scripts). */
export const StockOfferOneResponse = z.object({ data: StockOfferItem.extend({ audit: z.array(AuditItem) }) });

export const StockMoveItem = z.object({
  id: z.number().int(),
  offer_id: z.number().int(),
  delta: z.number().int(),
  quantity_after: z.number().int(),
  reason: z.string(),
  reason_label: z.string(),
  order_id: z.number().int().nullable(),
  return_request_id: z.number().int().nullable(),
  actor_kind: z.string(),
  actor_id: z.number().int().nullable(),
  note: z.string().nullable(),
  created_at: isoDate,
});
export type StockMoveItem = z.infer<typeof StockMoveItem>;
export const StockMoveListResponse = z.object({ data: z.array(StockMoveItem), total: z.number().int() });
export type StockMoveListResponse = z.infer<typeof StockMoveListResponse>;

const adjustKind = z.enum(['count', 'damage', 'receipt', 'correction'], {
  error: 'Причина: count, damage, receipt или correction',
});
const adjustNote = z.string().trim().min(1, 'Укажите причину').max(500);
const quantity = z.number().int().min(0).max(1_000_000);
const delta = z
  .number()
  .int()
  .min(-1_000_000)
  .max(1_000_000)
  .refine((d) => d !== 0, 'Изменение не может быть нулевым');
/** One offer: `set` a counted quantity (kind 'count') or move it by `delta`. */
export const StockAdjustBody = z
  .object({ set: quantity.optional(), delta: delta.optional(), kind: adjustKind, note: adjustNote })
  .refine((b) => (b.set === undefined) !== (b.delta === undefined), {
    message: 'Укажите либо новое количество (set), либо изменение (delta)',
    path: ['set'],
  })
  .refine((b) => (b.kind === 'count') === (b.set !== undefined), {
    message: 'Инвентаризация задаёт количество (set), остальные причины — изменение (delta)',
    path: ['kind'],
  });
export type StockAdjustBody = z.infer<typeof StockAdjustBody>;
/** Several offers: `all` refuses the whole batch if one offer cannot move; `each` moves each on its own (a take clamped at zero, unknown offers skipped). */
export const StockBulkBody = z.object({
  lines: z
    .array(z.object({ offer_id: z.number().int().min(1), delta }))
    .min(1)
    .max(200),
  kind: adjustKind.exclude(['count']),
  note: adjustNote,
  mode: z.enum(['all', 'each'], { error: 'Режим: all (всё или ничего) или each (по каждой позиции)' }),
});
export type StockBulkBody = z.infer<typeof StockBulkBody>;
export const StockChangeItem = z.object({
  offer_id: z.number().int(),
  previous: z.number().int(),
  quantity: z.number().int(),
  notified: z.number().int(),
});
export const StockAdjustResponse = z.object({ data: z.array(StockChangeItem) });
export type StockAdjustResponse = z.infer<typeof StockAdjustResponse>;

export const WaitingItem = z.object({
  id: z.number().int(),
  offer_id: z.number().int(),
  phone: z.string(),
  name: z.string(),
  created_at: isoDate,
  article: z.string(),
  product_name: z.string(),
  size: z.string(),
  quantity: z.number().int(),
  /** A pre-order size: fulfil when the stock arrives. */
  preorder: z.boolean(),
});
export const WaitingListResponse = z.object({ data: z.array(WaitingItem), total: z.number().int() });
export type WaitingListResponse = z.infer<typeof WaitingListResponse>;
/** A pre-order line to fulfil: an order not yet handed to delivery, and the offer's quantity now. */
export const PreorderItem = z.object({
  /** '<order id>:<offer id>' (react-admin needs one id per row). */
  id: z.string(),
  order_id: z.number().int(),
  order_created_at: isoDate,
  status: z.string(),
  status_label: z.string(),
  customer_id: z.number().int().nullable(),
  customer_name: z.string(),
  phone: z.string(),
  offer_id: z.number().int(),
  article: z.string(),
  title: z.string(),
  size: z.string(),
  quantity: z.number().int(),
  in_stock: z.number().int(),
});
export const PreorderListResponse = z.object({ data: z.array(PreorderItem), total: z.number().int() });
export type PreorderListResponse = z.infer<typeof PreorderListResponse>;

// --- Returns ---------------------------------------------------------------------------------------------

export const ReturnItem = z.object({
  id: z.number().int(),
  order_id: z.number().int(),
  customer_id: z.number().int(),
  items: z.array(z.object({ offer_id: z.number().int(), quantity: z.number().int() })),
  reason: z.string(),
  status: z.string(),
  status_label: z.string(),
  created_at: isoDate,
  decided_at: isoDate.nullable(),
  decision_note: z.string().nullable(),
  refund_delivery: z.boolean(),
  /** The goods are back on the shelf (their 'return_received' moves). */
  received: z.boolean(),
  /** The money given back; absent (not empty) without the `orders:money` permission (warehouse). */
  refunds: z.array(z.object({ means: z.string(), amount_kopecks: z.number().int(), status: z.string() })).optional(),
});
export type ReturnItem = z.infer<typeof ReturnItem>;
export const ReturnListResponse = z.object({ data: z.array(ReturnItem), total: z.number().int() });
export type ReturnListResponse = z.infer<typeof ReturnListResponse>;
export const ReturnOneResponse = z.object({ data: ReturnItem });
export type ReturnOneResponse = z.infer<typeof ReturnOneResponse>;
/** Approve = refund by the original means (certificates and bonuses at once, the card or instalments by a job). */
export const ReturnApproveBody = z.object({
  refund_delivery: z.boolean().default(false),
  note: z.string().trim().max(500).optional(),
});
/** The reason the customer sees. */
export const ReturnRejectBody = z.object({
  note: z.string().trim().min(1, 'Укажите причину отказа — её увидит покупатель').max(500),
});

// --- Customers (read) ------------------------------------------------------------------------------------

export const CustomerItem = z.object({
  id: z.number().int(),
  phone: z.string(),
  email: z.string(),
  name: z.string(),
  created_at: isoDate,
  blocked: z.boolean(),
});
export type CustomerItem = z.infer<typeof CustomerItem>;
export const CustomerListResponse = z.object({ data: z.array(CustomerItem), total: z.number().int() });
export type CustomerListResponse = z.infer<typeof CustomerListResponse>;
export const CustomerOneResponse = z.object({
  data: CustomerItem.extend({
    first_name: z.string(),
    last_name: z.string(),
    second_name: z.string(),
    birthday: z.string().nullable(),
    blocked_at: isoDate.nullable(),
    blocked_reason: z.string().nullable(),
    /** Live sessions (logged in on so many devices). */
    sessions: z.number().int(),
    /** The account's newsletter toggle, and the double opt-in state of the e-mail (null: never subscribed). */
    subscribed: z.boolean(),
    newsletter_status: z.enum(['pending', 'confirmed', 'unsubscribed']).nullable(),
    bonus_kopecks: z.number().int(),
    addresses: z.array(
      z.object({ id: z.number().int(), fields: z.record(z.string(), z.string()), created_at: isoDate }),
    ),
    orders: z.array(
      z.object({ id: z.number().int(), status: z.string(), total_kopecks: z.number().int(), created_at: isoDate }),
    ),
    returns: z.array(
      z.object({ id: z.number().int(), order_id: z.number().int(), status: z.string(), created_at: isoDate }),
    ),
    bonus_moves: z.array(
      z.object({
        id: z.number().int(),
        kind: z.string(),
        amount_kopecks: z.number().int(),
        order_id: z.number().int().nullable(),
        return_id: z.number().int().nullable(),
        created_at: isoDate,
        expires_at: isoDate.nullable(),
      }),
    ),
    certificates: z.array(
      z.object({
        id: z.number().int(),
        /** The last 4 digits only: the code is the bearer's money. */
        code_tail: z.string(),
        kind: z.string(),
        nominal_kopecks: z.number().int(),
        balance_kopecks: z.number().int(),
        order_id: z.number().int().nullable(),
        expires_at: isoDate,
      }),
    ),
    /** The customer's history: the audit rows about them (blocks, bonus adjustments). */
    audit: z.array(AuditItem),
  }),
});
export type CustomerOneResponse = z.infer<typeof CustomerOneResponse>;
/** A manual bonus adjustment: whole roubles, + credits a lot valid 12 months, − takes (never below zero). */
export const CustomerBonusBody = z.object({
  amount_kopecks: z
    .number()
    .int()
    .min(-100_000_000)
    .max(100_000_000)
    .refine((v) => v !== 0, 'Укажите сумму, отличную от нуля')
    .refine((v) => v % 100 === 0, 'Бонусы — целые рубли'),
  reason: z.string().trim().min(1, 'Укажите причину').max(500),
});
export const CustomerBlockBody = z.object({ reason: z.string().trim().min(1, 'Укажите причину').max(500) });
export const CustomerUnblockBody = z.object({ reason: z.string().trim().max(500).optional() });
