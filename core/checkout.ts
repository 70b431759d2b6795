// The checkout form's own rules (SPEC §5): required fields, lengths, phone and e-mail shape,
// what each delivery method needs (an address, a pickup point, a foreign address), and the pay
// amount. Which methods a city or a basket allows is core/delivery.ts's business: the API
// checks that after this (deliveryMethodIds, paymentMethodIds).

import { DELIVERY_ID, PAYMENT_ID } from '~/shared/checkout-ids';
import { ACCOUNT_TEXT, ADDRESS_FIELD_MAX_LENGTH, COMMENT_MAX_LENGTH, isNameShaped, NAME_MAX_LENGTH } from './account';
import { isDeliveryId, type DeliveryId, type PaymentId } from './delivery';
import { normaliseCityName } from './delivery-cities';
import { normalizePhone } from './phone';

export const CHECKOUT_TEXT = {
  firstnameRequired: 'Укажите имя',
  badName: ACCOUNT_TEXT.badName,
  phoneRequired: 'Укажите телефон',
  badPhone: 'Проверьте номер телефона',
  emailRequired: 'Укажите e-mail: на него придёт чек',
  badEmail: 'Проверьте e-mail',
  cityRequired: 'Укажите город',
  deliveryRequired: 'Выберите способ доставки',
  streetRequired: 'Укажите улицу и дом',
  foreignAddressRequired: 'Укажите адрес доставки: страну, город, улицу и дом',
  pointRequired: 'Выберите пункт выдачи',
  deliveryNotForCity: 'Этот способ доставки недоступен для выбранного города',
  pointNotInCity: 'Пункт выдачи не найден в выбранном городе',
  paymentRequired: 'Выберите способ оплаты',
  paymentNotForDelivery: 'Этот способ оплаты недоступен для выбранной доставки',
  badPostcode: 'Проверьте индекс',
  longField: 'Слишком длинное значение',
  emptyBasket: 'Корзина пуста',
  deliveryCostChanged: 'Стоимость доставки изменилась: проверьте сумму и подтвердите заказ ещё раз',
  /** Issue #26: a saved address of another city under the order's city. */
  addressOfOtherCity: (savedCity: string, city: string) =>
    `Этот адрес сохранён для города ${savedCity}, а заказ — в город ${city}. Укажите адрес в городе ${city}; если такой адрес есть и в нём, укажите его индекс.`,
  /** SPEC §8, exact. */
  serverError: 'Произошла ошибка на сервере. Пожалуйста, попробуйте позже.',
} as const;

/**
 * The order form's fields as order.php receives them (SPEC §7), in the order the form shows them
 * (the one list: the storefront's action, the API and the form's focus order read it).
 */
export const CHECKOUT_FIELDS = [
  'firstname',
  'lastname',
  'secondname',
  'phone',
  'email',
  'city',
  'delivery_id',
  'code_pvz',
  'street',
  'house',
  'flat',
  'postcode',
  'payment_id',
  'comment',
] as const;
export type CheckoutField = (typeof CHECKOUT_FIELDS)[number];

/** Longest value of each field, in characters (code points), after whitespace is collapsed. */
export const CHECKOUT_MAX_LENGTH: Record<CheckoutField, number> = {
  firstname: NAME_MAX_LENGTH,
  lastname: NAME_MAX_LENGTH,
  secondname: NAME_MAX_LENGTH,
  // '+7 (999) 000-00-00' is 18; room for a foreign number typed with spaces.
  phone: 30,
  email: 254,
  city: 100,
  delivery_id: 10,
  street: ADDRESS_FIELD_MAX_LENGTH,
  house: 20,
  flat: 20,
  postcode: 10,
  comment: COMMENT_MAX_LENGTH,
  // CDEK point codes are short ('MSK123'); the API then looks the code up in the city.
  code_pvz: 50,
  payment_id: 10,
};

export interface CheckoutForm {
  firstname: string;
  lastname: string;
  secondname: string;
  /** Digits only, Russian numbers as 7XXXXXXXXXX (core/phone.ts). */
  phone: string;
  /** Lower-cased. */
  email: string;
  city: string;
  deliveryId: DeliveryId;
  /** For international delivery ('200'): the whole foreign address. */
  street: string;
  house: string;
  flat: string;
  postcode: string;
  comment: string;
  /** The CDEK point code for pickup ('139'); '' for every other method. */
  pickupPoint: string;
  paymentId: PaymentId;
}

export type CheckoutValidation = { ok: true; value: CheckoutForm } | { ok: false; errors: Record<string, string> };

const PAYMENT_IDS: readonly string[] = Object.values(PAYMENT_ID) satisfies PaymentId[];

function isPaymentId(id: string): id is PaymentId {
  return PAYMENT_IDS.includes(id);
}

/** Every run of whitespace (line breaks included) to one space, control characters dropped, trimmed. */
export function collapseWhitespace(value: string): string {
  return (
    value
      // eslint-disable-next-line no-control-regex -- dropping control characters is the point
      .replace(/[\u0000-\u0008\u000e-\u001f\u007f]/g, '')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/** A comment keeps its line breaks (at most one empty line in a row); other whitespace collapses. */
function collapseComment(value: string): string {
  return (
    value
      .replace(/\r\n?/g, '\n')
      // eslint-disable-next-line no-control-regex -- dropping control characters is the point
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
      .replace(/[^\S\n]+/g, ' ')
      .replace(/ ?\n ?/g, '\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim()
  );
}

const length = (value: string): number => Array.from(value).length;

/**
 * A practical e-mail shape: one @, a local part of printable characters without spaces (at
 * most 64, no leading, trailing or double dot), and a domain of dot-separated labels ending in
 * a top-level name of letters. The receipt service is the final judge.
 */
export function isEmailShaped(email: string): boolean {
  const at = email.lastIndexOf('@');
  if (at <= 0 || at !== email.indexOf('@')) return false;
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (length(local) > 64 || !/^[^\s@"(),:;<>[\\\]]+$/u.test(local) || /^\.|\.$|\.\./.test(local)) return false;
  return /^(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+\p{L}{2,63}$/u.test(domain);
}

/** Letters of any alphabet, digits, spaces and hyphens ('125009', 'SW1A 1AA', '00-950'). */
const isPostcodeShaped = (value: string): boolean => /^[\p{L}\p{N}](?:[\p{L}\p{N} -]*[\p{L}\p{N}])?$/u.test(value);

/**
 * SPEC §5 for the order form. Values are trimmed and their whitespace collapsed; errors are
 * keyed by field name, one (the first that applies) per field. Required: firstname, phone,
 * email, city, delivery_id, payment_id, and by method: street for the Moscow courier and CDEK
 * door ('1', '137') and for international delivery ('200', the whole foreign address there),
 * code_pvz for a CDEK pickup point ('139'). An unknown method id reads as none chosen.
 */
export function validateCheckout(fields: Readonly<Record<string, string | undefined>>): CheckoutValidation {
  const v = {} as Record<CheckoutField, string>;
  for (const name of CHECKOUT_FIELDS) {
    const raw = fields[name];
    const text = typeof raw === 'string' ? raw : '';
    v[name] = name === 'comment' ? collapseComment(text) : collapseWhitespace(text);
  }
  const errors: Record<string, string> = {};
  const fail = (name: CheckoutField, message: string): void => {
    errors[name] ??= message;
  };

  // Lengths first: an over-long value gets that message whatever else is wrong with it.
  for (const name of CHECKOUT_FIELDS)
    if (length(v[name]) > CHECKOUT_MAX_LENGTH[name]) fail(name, CHECKOUT_TEXT.longField);

  if (v.firstname === '') fail('firstname', CHECKOUT_TEXT.firstnameRequired);
  for (const name of ['firstname', 'lastname', 'secondname'] as const) {
    if (v[name] !== '' && !isNameShaped(v[name])) fail(name, CHECKOUT_TEXT.badName);
  }

  let phone = '';
  if (v.phone === '') fail('phone', CHECKOUT_TEXT.phoneRequired);
  else {
    const normalized = normalizePhone(v.phone);
    if (normalized.ok) phone = normalized.phone;
    else fail('phone', CHECKOUT_TEXT.badPhone);
  }

  const email = v.email.toLowerCase();
  if (email === '') fail('email', CHECKOUT_TEXT.emailRequired);
  else if (!isEmailShaped(email)) fail('email', CHECKOUT_TEXT.badEmail);

  if (v.city === '') fail('city', CHECKOUT_TEXT.cityRequired);

  const deliveryId = v.delivery_id;
  if (!isDeliveryId(deliveryId)) fail('delivery_id', CHECKOUT_TEXT.deliveryRequired);
  else if (deliveryId === DELIVERY_ID.cdekPickup) {
    if (v.code_pvz === '') fail('code_pvz', CHECKOUT_TEXT.pointRequired);
  } else if (deliveryId === DELIVERY_ID.world) {
    if (v.street === '') fail('street', CHECKOUT_TEXT.foreignAddressRequired);
  } else if (deliveryId !== DELIVERY_ID.email && v.street === '') fail('street', CHECKOUT_TEXT.streetRequired);

  if (v.postcode !== '' && !isPostcodeShaped(v.postcode)) fail('postcode', CHECKOUT_TEXT.badPostcode);

  const paymentId = v.payment_id;
  if (!isPaymentId(paymentId)) fail('payment_id', CHECKOUT_TEXT.paymentRequired);

  if (Object.keys(errors).length > 0 || !isDeliveryId(deliveryId) || !isPaymentId(paymentId))
    return { ok: false, errors };
  return {
    ok: true,
    value: {
      firstname: v.firstname,
      lastname: v.lastname,
      secondname: v.secondname,
      phone,
      email,
      city: v.city,
      deliveryId,
      street: v.street,
      house: v.house,
      flat: v.flat,
      postcode: v.postcode,
      comment: v.comment,
      pickupPoint: deliveryId === DELIVERY_ID.cdekPickup ? v.code_pvz : '',
      paymentId,
    },
  };
}

/**
 * One Russian address line: 'Москва, ул Тверская, д. 12, кв. 5, 125009', empty parts skipped.
 * 'д.' and 'кв.' are added only before a number, so 'д. 12', 'дом 12' or 'влд 3' stay as typed.
 */
export function addressLine(form: Pick<CheckoutForm, 'street' | 'house' | 'flat' | 'postcode' | 'city'>): string {
  const city = collapseWhitespace(form.city);
  const street = collapseWhitespace(form.street);
  const house = collapseWhitespace(form.house);
  const flat = collapseWhitespace(form.flat);
  const postcode = collapseWhitespace(form.postcode);
  return [city, street, /^\d/.test(house) ? `д. ${house}` : house, /^\d/.test(flat) ? `кв. ${flat}` : flat, postcode]
    .filter((part) => part !== '')
    .join(', ');
}

/** Two cities are the same when their names are ('г Москва', 'москва'). */
export const sameCity = (a: string, b: string): boolean =>
  normaliseCityName(a) !== '' && normaliseCityName(a) === normaliseCityName(b);

const sameText = (a: string, b: string): boolean =>
  collapseWhitespace(a).toLowerCase() === collapseWhitespace(b).toLowerCase();

/**
 * Issue #26: the city of a saved address that the order's address is, street, house, flat and
 * postcode alike, when that city is not the order's (a St Petersburg address left in the form
 * after choosing Novosibirsk); null when the address is no saved one, or one of this city.
 */
export function savedAddressCityMismatch(
  form: Pick<CheckoutForm, 'city' | 'street' | 'house' | 'flat' | 'postcode'>,
  saved: readonly { city: string; street: string; house: string; flat: string; postal_code: string }[],
): string | null {
  const same = saved.filter(
    (a) =>
      a.street.trim() !== '' &&
      sameText(a.street, form.street) &&
      sameText(a.house, form.house) &&
      sameText(a.flat, form.flat) &&
      sameText(a.postal_code, form.postcode),
  );
  if (same.length === 0 || same.some((a) => sameCity(a.city, form.city))) return null;
  return same[0]?.city ?? null;
}
