import { ORDER_STATUS_LABELS, ORDER_STATUSES } from '~/core/order-status';
import { DELIVERY_ID, PAYMENT_ID } from '~/shared/checkout-ids';

// Russian names of an order's codes in the back office.

export const STATUS_CHOICES = ORDER_STATUSES.map((id) => ({ id, name: ORDER_STATUS_LABELS[id] }));

export const DELIVERY_LABELS: Record<string, string> = {
  [DELIVERY_ID.moscowCourier]: 'Курьер по Москве (примерка)',
  [DELIVERY_ID.cdekPickup]: 'СДЭК, пункт выдачи',
  [DELIVERY_ID.cdekDoor]: 'СДЭК, до двери',
  [DELIVERY_ID.world]: 'По миру',
  [DELIVERY_ID.email]: 'По e-mail',
};
export const DELIVERY_CHOICES = Object.entries(DELIVERY_LABELS).map(([id, name]) => ({ id, name }));

export const PAYMENT_LABELS: Record<string, string> = {
  [PAYMENT_ID.onReceipt]: 'При получении',
  [PAYMENT_ID.cardOnline]: 'Картой онлайн',
  [PAYMENT_ID.dolyami]: 'Долями',
  [PAYMENT_ID.yandexSplit]: 'Яндекс Сплит',
};
export const PAYMENT_CHOICES = Object.entries(PAYMENT_LABELS).map(([id, name]) => ({ id, name }));

export const PAYMENT_STATE_LABELS: Record<string, string> = {
  paid: 'Оплачен',
  awaiting: 'Ждёт оплаты',
  on_receipt: 'При получении',
  other: 'По договорённости',
  none: '—',
};

export const rub = (kopecks: number | null | undefined) =>
  kopecks === null || kopecks === undefined
    ? '—'
    : `${(kopecks / 100).toLocaleString('ru-RU', { maximumFractionDigits: 2 })} ₽`;

export const ACTION_TITLES: Record<string, string> = {
  confirm: 'Подтвердить',
  assemble: 'Собрать',
  ship: 'Передать в доставку',
  deliver: 'Доставлен',
  receive: 'Получен',
  cancel: 'Отменить',
  mark_paid: 'Оплачен при получении',
  fitting: 'Записать примерку',
};

/** What an SMS or letter of the order was about (sent_messages.tag); an unknown one shows no text. */
export const MESSAGE_LABELS: Record<string, string> = {
  'order-awaiting-payment': 'заказ ждёт оплаты',
  'order-placed': 'заказ принят',
  'order-shipped': 'передан в доставку, трек-номер',
  'order-payment-reminder': 'напоминание об оплате',
  'order-payment-expired': 'срок оплаты истёк',
  'return-decision': 'решение по возврату',
  'back-in-stock': 'размер снова в наличии',
};

/** +7 926 111-22-33 for a Russian number of 11 digits; any other as +digits. */
export const phoneText = (digits: string | null | undefined) => {
  if (!digits) return '—';
  const m = /^7(\d{3})(\d{3})(\d{2})(\d{2})$/.exec(digits);
  return m ? `+7 ${m[1]} ${m[2]}-${m[3]}-${m[4]}` : `+${digits}`;
};
