// Order statuses (issue #11): the codes stored in orders.status and order_status_history, their
// Russian labels, and which moves staff (and, later, the payment path) may make. Pure, so the
// account, the staff API and the models share one table.

export const ORDER_STATUSES = [
  'awaiting_payment',
  'new',
  'confirmed',
  'assembling',
  'shipped',
  'delivered',
  'received',
  'cancelled',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const ORDER_STATUS_LABELS: Readonly<Record<OrderStatus, string>> = {
  awaiting_payment: 'Ожидает оплаты',
  new: 'Принят',
  confirmed: 'Подтверждён',
  assembling: 'Собирается',
  shipped: 'Передан в доставку',
  delivered: 'Доставлен',
  received: 'Получен',
  cancelled: 'Отменён',
};

/** Codes of orders written before this table (the seed's demo history, older rows): still readable. */
export const LEGACY_STATUS_LABELS: Readonly<Record<string, string>> = {
  processing: 'В обработке',
  paid: 'Оплачен',
  completed: 'Выполнен',
};

/**
 * Allowed moves. The way forward is one step at a time; an order can be cancelled until it is
 * handed to the carrier (after that it comes back as a return or a refusal at the door);
 * 'received' and 'cancelled' are final. An order awaiting an online payment becomes 'new' only
 * when the payment is verified (models/payments.server.ts), never by hand: staff may only cancel it.
 */
const TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  awaiting_payment: ['cancelled'],
  new: ['confirmed', 'cancelled'],
  confirmed: ['assembling', 'cancelled'],
  assembling: ['shipped', 'cancelled'],
  shipped: ['delivered'],
  delivered: ['received'],
  received: [],
  cancelled: [],
};

export function isOrderStatus(value: unknown): value is OrderStatus {
  return typeof value === 'string' && (ORDER_STATUSES as readonly string[]).includes(value);
}

/** Whether an order in `from` may be moved to `to` (unknown codes never move). */
export function canMove(from: string, to: string): boolean {
  return isOrderStatus(from) && isOrderStatus(to) && TRANSITIONS[from].includes(to);
}

/** The statuses an order in `from` may go to next. */
export function nextStatuses(from: string): readonly OrderStatus[] {
  return isOrderStatus(from) ? TRANSITIONS[from] : [];
}

export function isFinalStatus(status: string): boolean {
  return isOrderStatus(status) && TRANSITIONS[status].length === 0;
}

/** The Russian label of a status code; an unknown one reads as being processed. */
export function statusLabel(status: string): string {
  return (isOrderStatus(status) ? ORDER_STATUS_LABELS[status] : LEGACY_STATUS_LABELS[status]) ?? 'В обработке';
}

export const ORDER_STATUS_TEXT = {
  notFound: 'Заказ не найден',
  unknownStatus: 'Неизвестный статус заказа',
  trackRequired: 'Для отправки СДЭК укажите трек-номер',
  badTrack: 'Трек-номер: от 4 до 40 латинских букв, цифр и дефисов',
  fittingRequired: 'Заказ с курьерской доставкой по Москве получают после примерки: запишите примерку',
  paymentNotVerified:
    'Заказ станет «Принят», когда платёжная система подтвердит оплату: вручную его можно только отменить',
} as const;

/** Why `from` cannot become `to`, for staff, in Russian. */
export function moveError(from: string, to: string): string {
  if (!isOrderStatus(to)) return ORDER_STATUS_TEXT.unknownStatus;
  if (from === to) return `Заказ уже в статусе «${statusLabel(to)}»`;
  if (isFinalStatus(from)) return `Заказ в статусе «${statusLabel(from)}»: его статус больше не меняется`;
  if (to === 'cancelled') return `Заказ в статусе «${statusLabel(from)}» уже нельзя отменить`;
  if (from === 'awaiting_payment' && to === 'new') return ORDER_STATUS_TEXT.paymentNotVerified;
  const next = nextStatuses(from).map((s) => `«${statusLabel(s)}»`);
  return `Нельзя перевести заказ из статуса «${statusLabel(from)}» в «${statusLabel(to)}»${next.length ? `: можно только в ${next.join(' или ')}` : ''}`;
}

/** Carrier track numbers as CDEK and the post write them. */
export function isTrackNumber(value: string): boolean {
  return /^[A-Za-z0-9-]{4,40}$/.test(value);
}
