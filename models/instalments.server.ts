import { and, desc, eq } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { orders, orderStatusHistory, paymentEvents } from '~/db/schema';
import { INSTALMENT_PAYMENT_IDS, isInstalmentPaymentId, isOnlinePaymentId } from '~/core/delivery';
import { instalmentUnavailableReason } from '~/core/instalments';
import { allocateProportionally } from '~/core/allocate';
import { amountDue } from '~/core/order-money';
import { PAYMENT_ID, type PaymentReceipt } from '~/shared/contract';
import {
  DOLYAMI_COMMITTABLE,
  DOLYAMI_DECLINED,
  DOLYAMI_PAID,
  DOLYAMI_PROVIDER,
  type Dolyami,
  type DolyamiItem,
} from '~/integrations/dolyami/index.server';
import {
  SPLIT_CAPTURABLE,
  SPLIT_DECLINED,
  SPLIT_PAID,
  YANDEX_SPLIT_PROVIDER,
  type YandexSplit,
} from '~/integrations/yandex-split/index.server';
import { applyPayment, findOrderToPay, PAYMENT_TEXT, type PayOutcome } from './payments.server';

// Pay in parts (issue #12; docs/decisions/008-instalments.md). Each try at a provider is an
// "attempt" with our id `<order id>-<n>`, recorded first as a 'create' event (unique per provider
// and id, so two clicks cannot make one attempt twice). Callbacks and webhooks only make the
// server ask the provider (Dolyami: info, then commit; Yandex Split: GET /orders after the JWT
// checked out); a paid answer goes through the card payment's one transition (applyPayment:
// the order row lock, a conditional update, the event stored once), so replays and two
// callbacks at once pay an order once.

export type InstalmentProvider = typeof DOLYAMI_PROVIDER | typeof YANDEX_SPLIT_PROVIDER;

export interface InstalmentServices {
  dolyami: Dolyami;
  split: YandexSplit;
}

export const INSTALMENT_TEXT = {
  unavailable:
    'Сервис оплаты частями сейчас недоступен. Попробуйте ещё раз через минуту или выберите другой способ оплаты.',
  pending: 'Сервис ещё обрабатывает оплату. Обновите страницу через минуту.',
} as const;

export function providerOf(paymentId: string): InstalmentProvider | null {
  return paymentId === PAYMENT_ID.dolyami
    ? DOLYAMI_PROVIDER
    : paymentId === PAYMENT_ID.yandexSplit
      ? YANDEX_SPLIT_PROVIDER
      : null;
}

/** `<order id>-<n>` → the order id, or null. */
export function orderIdOfAttempt(attemptId: string): number | null {
  const m = /^(\d{1,9})-(\d{1,4})$/.exec(attemptId);
  if (!m) return null;
  const id = Number(m[1]);
  return id > 0 && id <= 2_147_483_647 ? id : null;
}

/** Receipt lines as the providers' items: whole kopecks per item, or one line for the lot when a line's total does not divide. */
export function receiptItems(
  receipt: PaymentReceipt,
): { label: string; quantity: number; unitKopecks: number; totalKopecks: number }[] {
  // Gift certificates paid part of it (amounts.advancePayment): the provider lends only the
  // rest, so its items are the receipt's less that part, spread in proportion, adding up exactly.
  const amounts = receipt.Items.map((item) => Math.round(item.amount * 100));
  const advance = Math.round((receipt.amounts.advancePayment ?? 0) * 100);
  const less = advance > 0 ? allocateProportionally(advance, amounts) : amounts.map(() => 0);
  return receipt.Items.map((item, i) => {
    const total = (amounts[i] ?? 0) - (less[i] ?? 0);
    const q = item.quantity;
    return total % q === 0
      ? { label: item.label, quantity: q, unitKopecks: total / q, totalKopecks: total }
      : { label: `${item.label} × ${q}`, quantity: 1, unitKopecks: total, totalKopecks: total };
  });
}

interface Attempt {
  id: string;
  orderId: number;
  amountKopecks: number;
  link: string | null;
  items: DolyamiItem[];
  outcome: string;
}

async function attemptsOf(db: Database, provider: string, orderId: number): Promise<Attempt[]> {
  const rows = await db
    .select({
      id: paymentEvents.transactionId,
      amountKopecks: paymentEvents.amountKopecks,
      outcome: paymentEvents.outcome,
      payload: paymentEvents.payload,
    })
    .from(paymentEvents)
    .where(
      and(eq(paymentEvents.provider, provider), eq(paymentEvents.orderId, orderId), eq(paymentEvents.kind, 'create')),
    )
    .orderBy(desc(paymentEvents.id));
  return rows.map((r) => ({
    id: r.id,
    orderId,
    amountKopecks: r.amountKopecks ?? 0,
    link: typeof r.payload.link === 'string' ? r.payload.link : null,
    items: Array.isArray(r.payload.items) ? (r.payload.items as DolyamiItem[]) : [],
    outcome: r.outcome,
  }));
}

async function attemptById(db: Database, provider: string, id: string): Promise<Attempt | null> {
  const orderId = orderIdOfAttempt(id);
  if (orderId === null) return null;
  return (await attemptsOf(db, provider, orderId)).find((a) => a.id === id) ?? null;
}

async function record(
  db: Database,
  provider: string,
  id: string,
  kind: string,
  orderId: number | null,
  amountKopecks: number | null,
  outcome: string,
  payload: Record<string, unknown>,
) {
  const rows = await db
    .insert(paymentEvents)
    .values({ provider, transactionId: id, kind, orderId, amountKopecks, outcome, payload })
    .onConflictDoNothing({ target: [paymentEvents.provider, paymentEvents.transactionId, paymentEvents.kind] })
    .returning({ id: paymentEvents.id });
  return rows.length > 0;
}

export type StartResult =
  { ok: true; link: string; provider: InstalmentProvider } | { ok: false; status: string; error: string };

/**
 * instalment_link.php: the provider's page for the customer's own instalment order awaiting
 * payment. A still-open attempt is reused (a reload does not open a second one); after a
 * decline a new attempt starts.
 */
export async function startInstalment({
  db,
  services,
  customerId,
  orderId,
  urls,
}: {
  db: Database;
  services: InstalmentServices;
  customerId: number;
  orderId: number;
  /** successUrl, failUrl for the shopper's browser; notificationUrl where Dolyami calls back. */
  urls: (orderId: number) => { successUrl: string; failUrl: string; notificationUrl: string };
}): Promise<StartResult> {
  const found = await findOrderToPay({ db, customerId, orderId, paymentIds: INSTALMENT_PAYMENT_IDS });
  if (!found.ok) return { ok: false, status: found.status, error: found.error };
  const { order, receipt } = found;
  const provider = providerOf(order.paymentId);
  if (!provider) return { ok: false, status: 'not_found', error: PAYMENT_TEXT.notFound };
  const reason = instalmentUnavailableReason(amountDue(order));
  if (reason) return { ok: false, status: 'unavailable', error: reason };

  const attempts = await attemptsOf(db, provider, order.id);
  const open = attempts.find((a) => a.outcome === 'created' && a.link && a.amountKopecks === amountDue(order));
  if (open?.link) {
    const state =
      provider === DOLYAMI_PROVIDER
        ? (await services.dolyami.client.info(open.id))?.status
        : (await services.split.client.getOrder(open.id))?.paymentStatus;
    if (state === 'new' || state === 'PENDING') return { ok: true, link: open.link, provider };
    // Approved there but no callback came (lost, or still on its way): settle it now rather
    // than open a second attempt the shopper could pay as well.
    if (state && !DOLYAMI_DECLINED.includes(state) && !SPLIT_DECLINED.includes(state)) {
      const outcome =
        provider === DOLYAMI_PROVIDER
          ? await confirmDolyami({ db, dolyami: services.dolyami, attemptId: open.id })
          : await confirmSplit({ db, split: services.split, attemptId: open.id });
      if (outcome === 'paid' || outcome === 'replay' || outcome === 'already-paid')
        return { ok: false, status: 'paid', error: PAYMENT_TEXT.alreadyPaid };
      if (outcome === 'pending') return { ok: false, status: 'pending', error: INSTALMENT_TEXT.pending };
    }
  }
  const lines = receiptItems(receipt);
  const items: DolyamiItem[] = lines.map((l) => ({ name: l.label, quantity: l.quantity, priceKopecks: l.unitKopecks }));
  const id = `${order.id}-${attempts.length + 1}`;
  // Claimed before the provider is called: a second click at once finds the row and waits for the next try.
  if (!(await record(db, provider, id, 'create', order.id, amountDue(order), 'creating', { items }))) {
    return { ok: false, status: 'busy', error: INSTALMENT_TEXT.unavailable };
  }
  const u = urls(order.id);
  let link: string;
  try {
    if (provider === DOLYAMI_PROVIDER) {
      const [firstName = '', ...rest] = (await customerName(db, order.id)).split(' ');
      const created = await services.dolyami.client.create({
        id,
        amountKopecks: amountDue(order),
        items,
        client: { firstName, lastName: rest.join(' '), phone: order.phone, email: order.email ?? '' },
        notificationUrl: u.notificationUrl,
        successUrl: u.successUrl,
        failUrl: u.failUrl,
      });
      link = created.link;
    } else {
      const created = await services.split.client.createOrder({
        orderId: id,
        amountKopecks: amountDue(order),
        items: lines.map((l, i) => ({
          productId: String(i + 1),
          title: l.label,
          quantity: l.quantity,
          totalKopecks: l.totalKopecks,
        })),
        successUrl: u.successUrl,
        errorUrl: u.failUrl,
      });
      link = created.paymentUrl;
    }
  } catch (err) {
    await setAttempt(db, provider, id, 'failed', { items, error: err instanceof Error ? err.message : String(err) });
    throw err;
  }
  await setAttempt(db, provider, id, 'created', { items, link });
  return { ok: true, link, provider };
}

async function customerName(db: Database, orderId: number): Promise<string> {
  const [row] = await db.select({ name: orders.customerName }).from(orders).where(eq(orders.id, orderId)).limit(1);
  return row?.name ?? '';
}

async function setAttempt(
  db: Database,
  provider: string,
  id: string,
  outcome: string,
  payload: Record<string, unknown>,
) {
  await db
    .update(paymentEvents)
    .set({ outcome, payload })
    .where(
      and(eq(paymentEvents.provider, provider), eq(paymentEvents.transactionId, id), eq(paymentEvents.kind, 'create')),
    );
}

async function orderState(db: Database, orderId: number) {
  const [row] = await db
    .select({
      id: orders.id,
      status: orders.status,
      customerId: orders.customerId,
      totalKopecks: orders.totalKopecks,
      certificateKopecks: orders.certificateKopecks,
      paidAt: orders.paidAt,
      paymentTransactionId: orders.paymentTransactionId,
    })
    .from(orders)
    .where(eq(orders.id, orderId))
    .limit(1);
  return row ?? null;
}

/** Whether money for this attempt should still be taken: the order waits for it, or was released unpaid (the late rule decides then). */
function takesMoney(order: NonNullable<Awaited<ReturnType<typeof orderState>>>, attemptId: string): boolean {
  if (order.paymentTransactionId === attemptId) return true;
  if (order.paidAt) return false;
  return order.status === 'awaiting_payment' || order.status === 'cancelled';
}

export type ConfirmOutcome =
  PayOutcome | 'unknown' | 'pending' | 'declined' | 'declined:replay' | 'refused:amount' | 'cancelled-at-provider';

async function paid(
  db: Database,
  provider: InstalmentProvider,
  attempt: Attempt,
  amountKopecks: number,
  customerId: number | null,
  status: string,
  now: Date,
) {
  return applyPayment({
    db,
    provider,
    kind: 'pay',
    now,
    notice: {
      transactionId: attempt.id,
      invoiceId: String(attempt.orderId),
      // The provider answered for our own attempt of this order: the account is the order's.
      accountId: customerId === null ? '' : String(customerId),
      amountKopecks,
      currency: 'RUB',
      fields: { source: provider === DOLYAMI_PROVIDER ? 'info' : 'GET /orders', status },
    },
  });
}

async function declined(
  db: Database,
  provider: InstalmentProvider,
  attempt: Attempt,
  status: string,
): Promise<ConfirmOutcome> {
  return (await record(db, provider, attempt.id, 'fail', attempt.orderId, attempt.amountKopecks, `declined:${status}`, {
    status,
  }))
    ? 'declined'
    : 'declined:replay';
}

/**
 * What Dolyami says of an attempt, acted upon: approved or wait_for_commit → commit (when the
 * order still takes the money; otherwise cancelled there), committed or completed → paid,
 * rejected or canceled → recorded, the order keeps waiting.
 */
export async function confirmDolyami({
  db,
  dolyami,
  attemptId,
  now = new Date(),
}: {
  db: Database;
  dolyami: Dolyami;
  attemptId: string;
  now?: Date;
}): Promise<ConfirmOutcome> {
  const attempt = await attemptById(db, DOLYAMI_PROVIDER, attemptId);
  if (!attempt) return 'unknown';
  let info = await dolyami.client.info(attempt.id);
  if (!info) return 'unknown';
  if (DOLYAMI_DECLINED.includes(info.status)) return declined(db, DOLYAMI_PROVIDER, attempt, info.status);
  const order = await orderState(db, attempt.orderId);
  if (!order) return 'unknown';
  if (info.amountKopecks !== attempt.amountKopecks || info.amountKopecks !== amountDue(order)) {
    if (DOLYAMI_COMMITTABLE.includes(info.status)) await dolyami.client.cancel(attempt.id);
    await record(db, DOLYAMI_PROVIDER, attempt.id, 'verified', order.id, info.amountKopecks, 'refused:amount', {
      status: info.status,
    });
    return 'refused:amount';
  }
  if (DOLYAMI_COMMITTABLE.includes(info.status)) {
    if (!takesMoney(order, attempt.id)) {
      await dolyami.client.cancel(attempt.id);
      await record(
        db,
        DOLYAMI_PROVIDER,
        attempt.id,
        'cancel',
        order.id,
        info.amountKopecks,
        'cancelled:order-not-awaiting',
        { status: info.status },
      );
      return 'cancelled-at-provider';
    }
    try {
      info = await dolyami.client.commit(attempt.id, attempt.amountKopecks, attempt.items);
    } catch (err) {
      // Two callbacks at once: the other one committed. What Dolyami says now decides.
      const again = await dolyami.client.info(attempt.id);
      if (!again || !DOLYAMI_PAID.includes(again.status)) throw err;
      info = again;
    }
    await record(
      db,
      DOLYAMI_PROVIDER,
      attempt.id,
      'confirm',
      order.id,
      info.amountKopecks,
      `committed:${info.status}`,
      { status: info.status },
    );
  }
  if (DOLYAMI_PAID.includes(info.status))
    return paid(db, DOLYAMI_PROVIDER, attempt, info.amountKopecks, order.customerId, info.status, now);
  return 'pending';
}

/**
 * What Yandex says of an attempt (after a webhook whose JWT checked out, or a look-up):
 * CAPTURED → paid; AUTHORIZED → captured first; FAILED or VOIDED → recorded, the order keeps waiting.
 */
export async function confirmSplit({
  db,
  split,
  attemptId,
  now = new Date(),
}: {
  db: Database;
  split: YandexSplit;
  attemptId: string;
  now?: Date;
}): Promise<ConfirmOutcome> {
  const attempt = await attemptById(db, YANDEX_SPLIT_PROVIDER, attemptId);
  if (!attempt) return 'unknown';
  let state = await split.client.getOrder(attempt.id);
  if (!state) return 'unknown';
  if (SPLIT_DECLINED.includes(state.paymentStatus))
    return declined(db, YANDEX_SPLIT_PROVIDER, attempt, state.paymentStatus);
  const order = await orderState(db, attempt.orderId);
  if (!order) return 'unknown';
  // GET /orders' amount field is unconfirmed: without one, the amount the attempt was created with stands.
  const amount = state.amountKopecks ?? attempt.amountKopecks;
  if (amount !== attempt.amountKopecks || amount !== amountDue(order)) {
    await record(db, YANDEX_SPLIT_PROVIDER, attempt.id, 'verified', order.id, amount, 'refused:amount', {
      status: state.paymentStatus,
    });
    return 'refused:amount';
  }
  if (SPLIT_CAPTURABLE.includes(state.paymentStatus) && takesMoney(order, attempt.id)) {
    try {
      await split.client.capture(attempt.id, amount);
    } catch (err) {
      const again = await split.client.getOrder(attempt.id);
      if (!again || !SPLIT_PAID.includes(again.paymentStatus)) throw err;
    }
    state = (await split.client.getOrder(attempt.id)) ?? state;
  }
  if (SPLIT_PAID.includes(state.paymentStatus))
    return paid(db, YANDEX_SPLIT_PROVIDER, attempt, amount, order.customerId, state.paymentStatus, now);
  return 'pending';
}

/** The return from the provider, or the release job: asks about the order's latest attempt (heals a lost callback). */
export async function confirmLatestAttempt({
  db,
  services,
  orderId,
}: {
  db: Database;
  services: InstalmentServices;
  orderId: number;
}): Promise<ConfirmOutcome | null> {
  const [order] = await db.select({ paymentId: orders.paymentId }).from(orders).where(eq(orders.id, orderId)).limit(1);
  const provider = order ? providerOf(order.paymentId) : null;
  if (!provider) return null;
  const [latest] = await attemptsOf(db, provider, orderId);
  if (!latest || latest.outcome !== 'created') return null;
  return provider === DOLYAMI_PROVIDER
    ? confirmDolyami({ db, dolyami: services.dolyami, attemptId: latest.id })
    : confirmSplit({ db, split: services.split, attemptId: latest.id });
}

/**
 * Refund through the provider an order was paid with in parts (returns, late or duplicate
 * payments): Dolyami refunds its committed order, Yandex Split its captured one; the caller
 * records it once (models/payments.server.ts refundPayment).
 */
export async function refundInstalment({
  db,
  services,
  provider,
  attemptId,
  amountKopecks,
  key,
}: {
  db: Database;
  services: InstalmentServices;
  provider: InstalmentProvider;
  attemptId: string;
  amountKopecks: number;
  /** Idempotency key of this refund (a return's `return:<refund id>`): two returns of one amount are two refunds. */
  key?: string;
}): Promise<void> {
  const attempt = await attemptById(db, provider, attemptId);
  if (!attempt) throw new Error(`no ${provider} attempt ${attemptId}`);
  if (provider === DOLYAMI_PROVIDER) {
    await services.dolyami.client.refund(
      attempt.id,
      amountKopecks,
      amountKopecks === attempt.amountKopecks ? attempt.items : [],
      key,
    );
    return;
  }
  const state = await services.split.client.getOrder(attempt.id);
  const remaining = (state?.amountKopecks ?? attempt.amountKopecks) - amountKopecks;
  if (remaining < 0) throw new Error(`refund above the order ${attemptId}`);
  await services.split.client.refund(attempt.id, amountKopecks, remaining);
}

export type ChangePaymentResult = { ok: true } | { ok: false; status: string; error: string };

export const CHANGE_PAYMENT_TEXT = {
  notOnline: 'Этот способ оплаты нельзя выбрать для заказа, который уже оформлен',
  changed: (name: string) => `Способ оплаты изменён: ${name}`,
} as const;

/**
 * After a decline the shopper may pay the same order another online way (card, Dolyami, Yandex
 * Split) while it still waits: the method changes under the order's row lock, only from
 * awaiting_payment and within the hold. A verified payment of the earlier method that still
 * comes pays the order all the same (applyPayment takes any online method).
 */
export async function changeOnlinePayment({
  db,
  customerId,
  orderId,
  paymentId,
  name,
  now = new Date(),
}: {
  db: Database;
  customerId: number;
  orderId: number;
  paymentId: string;
  /** The method's Russian name, for the order's history. */
  name: string;
  now?: Date;
}): Promise<ChangePaymentResult> {
  if (!isOnlinePaymentId(paymentId)) return { ok: false, status: 'refused', error: CHANGE_PAYMENT_TEXT.notOnline };
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    const [order] = await tx
      .select({
        status: orders.status,
        customerId: orders.customerId,
        paymentId: orders.paymentId,
        totalKopecks: orders.totalKopecks,
        certificateKopecks: orders.certificateKopecks,
        payUntil: orders.payUntil,
        paidAt: orders.paidAt,
      })
      .from(orders)
      .where(eq(orders.id, orderId))
      .for('update')
      .limit(1);
    if (!order || order.customerId !== customerId || !isOnlinePaymentId(order.paymentId))
      return { ok: false as const, status: 'not_found', error: PAYMENT_TEXT.notFound };
    if (order.paidAt) return { ok: false as const, status: 'paid', error: PAYMENT_TEXT.alreadyPaid };
    if (order.status !== 'awaiting_payment' || (order.payUntil && order.payUntil.getTime() <= now.getTime()))
      return { ok: false as const, status: 'cancelled', error: PAYMENT_TEXT.expired };
    if (order.paymentId === paymentId) return { ok: true as const };
    if (isInstalmentPaymentId(paymentId)) {
      const reason = instalmentUnavailableReason(amountDue(order));
      if (reason) return { ok: false as const, status: 'unavailable', error: reason };
    }
    await tx
      .update(orders)
      .set({ paymentId })
      .where(and(eq(orders.id, orderId), eq(orders.status, 'awaiting_payment')));
    await tx
      .insert(orderStatusHistory)
      .values({ orderId, status: 'awaiting_payment', note: CHANGE_PAYMENT_TEXT.changed(name), createdAt: now });
    return { ok: true as const };
  });
}
