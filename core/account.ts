// The personal account (SPEC §3 Account, §7 /api/personal/*): texts, limits, order status
// labels and the return period, in one place for the API and the storefront.

import { statusLabel } from './order-status';

export const ACCOUNT_TEXT = {
  badEmail: 'Проверьте адрес электронной почты',
  emailTaken: 'Этот e-mail уже указан в другом аккаунте. Войдите в тот аккаунт или укажите другой адрес.',
  badName: 'Имя, фамилия и отчество могут содержать только буквы, пробел, дефис и апостроф',
  longName: 'Слишком длинное значение: не больше 50 символов',
  cityRequired: 'Укажите город',
  unknownCity: 'Такого города мы не нашли: начните вводить название и выберите город из подсказок',
  streetRequired: 'Укажите улицу',
  longField: 'Слишком длинное значение',
  tooManyAddresses: 'Можно сохранить не больше 20 адресов. Удалите ненужный адрес и попробуйте снова.',
  addressNotFound: 'Адрес не найден',
  orderNotFound: 'Заказ не найден',
  notDelivered: 'Заказ ещё не получен: вернуть его можно после получения',
  returnExpired:
    'Срок возврата истёк: вещи из интернет-магазина можно вернуть в течение 7 дней с момента получения, по предзаказу — в течение 14 дней',
  returnNothing: 'Выберите вещи для возврата',
  returnTooMany: 'Столько вещей в заказе нет или они уже в заявке на возврат',
  longReason: 'Причина слишком длинная: не больше 500 символов',
} as const;

/** Addresses a customer may keep. */
export const MAX_ADDRESSES = 20;
export const NAME_MAX_LENGTH = 50;
export const ADDRESS_FIELD_MAX_LENGTH = 200;
export const COMMENT_MAX_LENGTH = 500;
export const REASON_MAX_LENGTH = 500;

/** The address form's fields, in form order (SPEC §7 address_add.php). */
export const ADDRESS_FIELDS = ['city', 'street', 'house', 'flat', 'postal_code', 'comment'] as const;
export type AddressField = (typeof ADDRESS_FIELDS)[number];

/** SPEC §5: profile field names travel lower-cased as change[field]. */
export const PROFILE_FIELDS = ['firstname', 'lastname', 'secondname', 'email'] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];

/** Letters of any alphabet, spaces, hyphens and apostrophes: names, never markup. */
export const isNameShaped = (value: string): boolean => /^[\p{L}][\p{L}\p{M}' \-’]*$/u.test(value);

/** The Russian label of an order status (core/order-status.ts; older codes stay readable); an unknown one reads as being processed. */
export const orderStatusLabel = (status: string): string => statusLabel(status);

const RETURN_STATUS_LABELS: Record<string, string> = {
  new: 'Заявка принята',
  approved: 'Возврат одобрен',
  refunded: 'Деньги возвращены',
  rejected: 'Возврат отклонён',
};

export const returnStatusLabel = (status: string): string => RETURN_STATUS_LABELS[status] ?? 'На рассмотрении';

/** content/pages/return.md: 7 days from receipt for online orders, 14 for pre-orders. */
export const RETURN_DAYS = { online: 7, preorder: 14 } as const;

/** The last moment a line received at `deliveredAt` may be returned. */
export function returnDeadline(deliveredAt: Date, isPreorder: boolean): Date {
  return new Date(deliveredAt.getTime() + (isPreorder ? RETURN_DAYS.preorder : RETURN_DAYS.online) * 86_400_000);
}

/** Whether a line may still be returned at `now`: received, and within its period. */
export function isReturnOpen(deliveredAt: Date | null, isPreorder: boolean, now: Date): boolean {
  return deliveredAt !== null && now.getTime() <= returnDeadline(deliveredAt, isPreorder).getTime();
}

export interface OrderLineForReturn {
  offerId: number;
  quantity: number;
  isPreorder: boolean;
  isGift: boolean;
}

/**
 * How many of each order line may still be asked back at `now`: lines received and within
 * their period (gifts never), less what earlier requests already ask for of that offer
 * (`requested`, by offer id), taken from the offer's lines in order.
 */
export function returnableQuantities(
  lines: readonly OrderLineForReturn[],
  deliveredAt: Date | null,
  requested: ReadonlyMap<number, number>,
  now: Date,
): number[] {
  const used = new Map(requested);
  return lines.map((line) => {
    if (line.isGift || !isReturnOpen(deliveredAt, line.isPreorder, now)) return 0;
    const taken = Math.min(line.quantity, used.get(line.offerId) ?? 0);
    used.set(line.offerId, (used.get(line.offerId) ?? 0) - taken);
    return line.quantity - taken;
  });
}
