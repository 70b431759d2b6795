import type { DeliveryMethod, OrderParamsResponse, PaymentMethod, SavedAddress, UserInfo } from '~/shared/contract';
import { CHECKOUT_TEXT, sameCity, type CheckoutField } from '~/core/checkout';
import { formatPhoneMask } from '~/core/phone';

// What the checkout form and the /basket/ route action share: the form's values, the action's
// answer, and the checks the browser makes before sending (SPEC §5). Those only mirror the
// server, with its texts: the server (order.php) is the judge.

/** The form's values by the names order.php reads (SPEC §3 Order checkout), plus the save-address tick. */
export type CheckoutValues = Record<CheckoutField, string> & { save_address: boolean };

/** The action's answer when no order was placed (success is a redirect). */
export interface CheckoutFailure {
  ok: false;
  /** order.php's `data`: form field → Russian message; `error` for the form as a whole. */
  errors: Record<string, string>;
  /** What was sent, so a page rendered without scripts shows the form as the shopper left it. */
  values: CheckoutValues;
  /** The idempotency key of this form: a retry of the same submission keeps it. */
  key: string;
  /** Present when the delivery cost changed: the server's cost now (roubles, null: to be confirmed). */
  deliveryCost?: number | null;
  /** The bonuses asked for, to show them again. */
  bonuses?: string;
}

/** The intent the checkout form posts to the /basket/ action. */
export const CHECKOUT_INTENT = 'order';

/** Posted as 'yes' when the basket showed the promo code refused: the order goes without it. */
export const PROMO_REFUSED_FIELD = 'promo_refused';

/** Above the button when a code applied on the page was refused at ordering (the amount grew). */
export const promoChanged = (reason: string): string =>
  `${reason}. Сумма заказа изменилась: проверьте её и оформите заказ ещё раз.`;

/** The profile and the first saved address, as the form starts (SPEC §3: pre-filled). */
export function initialValues(
  profile: UserInfo | null,
  address: SavedAddress | undefined,
  fallbackCity: string,
): CheckoutValues {
  return {
    firstname: profile?.FIRSTNAME ?? '',
    lastname: profile?.LASTNAME ?? '',
    secondname: profile?.SECONDNAME ?? '',
    phone: profile?.PHONE ? formatPhoneMask(profile.PHONE) : '',
    email: profile?.EMAIL ?? '',
    city: address?.city || fallbackCity,
    delivery_id: '',
    street: address?.street ?? '',
    house: address?.house ?? '',
    flat: address?.flat ?? '',
    postcode: address?.postal_code ?? '',
    comment: address?.comment ?? '',
    code_pvz: '',
    payment_id: '',
    save_address: false,
  };
}

/** The saved address's fields into the form (city included); the rest stays. */
export function withAddress(values: CheckoutValues, address: SavedAddress): CheckoutValues {
  return {
    ...values,
    city: address.city || values.city,
    street: address.street,
    house: address.house,
    flat: address.flat,
    postcode: address.postal_code,
    comment: address.comment || values.comment,
  };
}

const same = (a: string, b: string) =>
  a.trim().toLowerCase().replace(/\s+/g, ' ') === b.trim().toLowerCase().replace(/\s+/g, ' ');

/** The saved addresses of a city: the only ones checkout offers there (issue #26). */
export function addressesOfCity(addresses: readonly SavedAddress[], city: string): SavedAddress[] {
  return addresses.filter((a) => sameCity(a.city, city));
}

/**
 * The address fields once the city becomes `city` (issue #26): an address taken from a saved one
 * of another city, or none at all, gives way to the first saved address of this city, or to empty
 * fields; an address the shopper typed, or one saved for this city, stays.
 */
export function addressForCity(
  values: CheckoutValues,
  city: string,
  addresses: readonly SavedAddress[],
): CheckoutValues {
  const saved = addresses.filter(
    (a) => same(a.street, values.street) && same(a.house, values.house) && same(a.flat, values.flat),
  );
  const empty = [values.street, values.house, values.flat, values.postcode].every((v) => v.trim() === '');
  if (saved.some((a) => sameCity(a.city, city)) || (saved.length === 0 && !empty)) return { ...values, city };
  const first = addressesOfCity(addresses, city)[0];
  if (first) return { ...withAddress(values, first), city };
  const comment = saved.some((a) => a.comment !== '' && same(a.comment, values.comment)) ? '' : values.comment;
  return { ...values, city, street: '', house: '', flat: '', postcode: '', comment };
}

/** Whether the address typed is one of the saved ones (then saving it again is not offered). */
export function isSavedAddress(values: CheckoutValues, addresses: readonly SavedAddress[]): boolean {
  return addresses.some(
    (a) =>
      same(a.city, values.city) &&
      same(a.street, values.street) &&
      same(a.house, values.house) &&
      same(a.flat, values.flat),
  );
}

/**
 * SPEC §5, as the browser checks before sending: firstname, phone, email and city non-empty
 * after trimming; a delivery method chosen, with a street (or a pickup point); a payment method.
 * The shapes (e-mail, phone) are the server's to judge.
 */
export function mirrorChecks(values: CheckoutValues, method: DeliveryMethod | undefined): Record<string, string> {
  const errors: Record<string, string> = {};
  if (values.firstname.trim() === '') errors.firstname = CHECKOUT_TEXT.firstnameRequired;
  if (values.phone.replace(/\D/g, '') === '') errors.phone = CHECKOUT_TEXT.phoneRequired;
  if (values.email.trim() === '') errors.email = CHECKOUT_TEXT.emailRequired;
  if (values.city.trim() === '') errors.city = CHECKOUT_TEXT.cityRequired;
  if (!method) errors.delivery_id = CHECKOUT_TEXT.deliveryRequired;
  else if (method.MODE === 'pickup') {
    if (values.code_pvz === '') errors.code_pvz = CHECKOUT_TEXT.pointRequired;
  } else if (method.MODE !== 'email' && values.street.trim() === '') {
    errors.street = method.MODE === 'contact' ? CHECKOUT_TEXT.foreignAddressRequired : CHECKOUT_TEXT.streetRequired;
  }
  if (values.payment_id === '') errors.payment_id = CHECKOUT_TEXT.paymentRequired;
  return errors;
}

/** The payment methods that go with a delivery method (PaymentMethod.DELIVERY_IDS). */
export function paymentsFor(params: OrderParamsResponse | null, deliveryId: string): PaymentMethod[] {
  return params?.payment_methods.filter((p) => p.DELIVERY_IDS.includes(deliveryId)) ?? [];
}

/** The key of one order-params answer: the city and the basket it was asked for. */
export function paramsKey(city: string, ids: string, preorderIds: string): string {
  return `${city.trim().toLowerCase()}|${ids}|${preorderIds}`;
}

/** A fresh idempotency key (the route loader makes one per page: a form keeps it for its life). */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0'))
    .join('')
    .replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
}
