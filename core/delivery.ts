// Delivery rules the shop promises in content/pages/delivery.md, shipment.md and pre-order.md
// (SPEC §9): the Moscow courier (700 ₽, next working day before 18:00, two outerwear items a
// trip, 15 minutes' fitting), hand-over to CDEK within 3 working days, regional times, parcel
// weight and size for the calculator, and which delivery and payment methods go together.

import { DELIVERY_ID, PAYMENT_ID } from '~/shared/checkout-ids';
import type { DeliveryRegion, ShopCity } from './delivery-cities';
import { addCalendarDays, addWorkingDays, isWorkingDay, moscowNow, nextWorkingDay } from './working-days';
import { pluralRu } from './plural';

export type DeliveryId = (typeof DELIVERY_ID)[keyof typeof DELIVERY_ID];
export type PaymentId = (typeof PAYMENT_ID)[keyof typeof PAYMENT_ID];

export const MOSCOW_COURIER_PRICE_KOPECKS = 70_000;
/** Orders placed before 18:00 Moscow time on a working day count from that day. */
export const COURIER_CUTOFF_MINUTES = 18 * 60;
export const MAX_OUTERWEAR_PER_TRIP = 2;
export const FITTING_MINUTES = 15;
/** Hand-over to the carrier within this many working days (shipment.md). */
export const SHIPPING_WORKING_DAYS = 3;

// ---------------------------------------------------------------------------------------
// Outerwear and courier trips
// ---------------------------------------------------------------------------------------

/** delivery.md «пальто, куртки, плащи, шубы»: the garment kinds (shared/art.ts) a courier carries two of a trip. */
export const OUTERWEAR_KINDS: ReadonlySet<string> = new Set([
  'warm-coat',
  'coat',
  'trench',
  'puffer',
  'fur-coat',
  'denim-jacket',
]);

export function isOuterwear(kind: string): boolean {
  return OUTERWEAR_KINDS.has(kind);
}

/** A quantity as a whole number of items: junk counts as none. */
function items(quantity: number): number {
  return Number.isFinite(quantity) && quantity > 0 ? Math.floor(quantity) : 0;
}

/**
 * Courier trips needed for a Moscow order: ceil(outerwear items / 2), at least 1. Gift lines
 * (the garment cover that comes with a coat) are never outerwear, whatever their kind.
 */
export function courierTrips(lines: readonly { kind: string; quantity: number; isGift?: boolean }[]): number {
  let outerwear = 0;
  for (const line of lines) if (!line.isGift && isOuterwear(line.kind)) outerwear += items(line.quantity);
  return Math.max(1, Math.ceil(outerwear / MAX_OUTERWEAR_PER_TRIP));
}

/** What the shopper should know when the courier needs more than one trip; null for one. */
export function courierTripsNote(trips: number): string | null {
  if (!Number.isInteger(trips) || trips <= 1) return null;
  const word = pluralRu(trips, 'выезд', 'выезда', 'выездов');
  return `Курьер привозит не больше двух изделий верхней одежды за выезд, поэтому заказ приедет за ${trips} ${word} — время каждого согласуем с вами.`;
}

// ---------------------------------------------------------------------------------------
// Dates
// ---------------------------------------------------------------------------------------

/**
 * The working day an order placed at `now` counts from: today when it is a working day and
 * the order came before 18:00 Moscow time, otherwise the next working day.
 */
export function effectiveOrderDay(now: Date): string {
  const { date, minutes } = moscowNow(now);
  return isWorkingDay(date) && minutes < COURIER_CUTOFF_MINUTES ? date : nextWorkingDay(date);
}

/**
 * delivery.md: the Moscow courier comes the working day after the effective order day —
 * Friday 17:59 → Monday, Friday 18:00 → Tuesday, Saturday → Tuesday, holidays skipped.
 */
export function courierDeliveryDate(now: Date): string {
  return nextWorkingDay(effectiveOrderDay(now));
}

/** delivery.md «Сроки», calendar days after the hand-over to CDEK. */
export const REGION_DAYS: Record<'russia' | 'by-kz' | 'cis', { min: number; max: number }> = {
  russia: { min: 2, max: 9 },
  'by-kz': { min: 3, max: 10 },
  cis: { min: 3, max: 14 },
};

/** The promised period of a region; null for Moscow (courier, next working day) and the world (by agreement). */
export function regionDays(region: DeliveryRegion): { min: number; max: number } | null {
  return region === 'russia' || region === 'by-kz' || region === 'cis' ? REGION_DAYS[region] : null;
}

/** Hand-over to the carrier: from the first to the SHIPPING_WORKING_DAYS-th working day after the effective order day. */
export function shipmentDates(now: Date): { earliest: string; latest: string } {
  const day = effectiveOrderDay(now);
  return { earliest: addWorkingDays(day, 1), latest: addWorkingDays(day, SHIPPING_WORKING_DAYS) };
}

/** Expected delivery by CDEK: shipment earliest + min calendar days … shipment latest + max. */
export function carrierDeliveryDates(now: Date, period: { min: number; max: number }): { from: string; to: string } {
  const { earliest, latest } = shipmentDates(now);
  return { from: addCalendarDays(earliest, period.min), to: addCalendarDays(latest, period.max) };
}

/** '2–9 дней', '1–2 дня', '3 дня', '1 день' (the noun agrees with the last number, en dash between). */
export function periodText(min: number, max: number): string {
  if (!Number.isInteger(min) || !Number.isInteger(max) || min < 0 || max < min)
    throw new RangeError(`Not a period: ${min}–${max}`);
  const noun = pluralRu(max, 'день', 'дня', 'дней');
  return min === max ? `${max} ${noun}` : `${min}–${max} ${noun}`;
}

/** pre-order.md «Сроки»: a pre-ordered item is made in two to four weeks, then sent like any order. */
export const PREORDER_MAKING_DAYS = { min: 14, max: 28 } as const;

/** When a pre-order is expected: the method's own dates, counted from when the item is made. */
export function preorderDeliveryDates(dates: { from: string; to: string }): { from: string; to: string } {
  return {
    from: addCalendarDays(dates.from, PREORDER_MAKING_DAYS.min),
    to: addCalendarDays(dates.to, PREORDER_MAKING_DAYS.max),
  };
}

/** A method's timing for a basket of pre-orders only ('2–9 дней после изготовления'). */
export const preorderPeriodText = (period: string): string => `${period} после изготовления`;

/** The note of an order that mixes goods in stock and pre-orders: the pre-orders come later. */
export const preorderLaterNote = (dates: string): string =>
  `Предзаказ привезём отдельно, когда он будет готов: ожидаемая доставка ${dates}.`;

/** The courier's timing as a method's PERIOD_TEXT. */
export const COURIER_PERIOD_TEXT = 'на следующий рабочий день';

// ---------------------------------------------------------------------------------------
// Parcel weight and size (the CDEK calculator's package)
// ---------------------------------------------------------------------------------------

/** Typical weight of one item of a garment kind, for products without their own weight_grams. */
export const DEFAULT_WEIGHT_GRAMS: Record<string, number> = {
  'warm-coat': 2000,
  coat: 1600,
  'fur-coat': 3000,
  puffer: 1200,
  trench: 1100,
  'denim-jacket': 900,
  blazer: 800,
  sweater: 600,
  cardigan: 600,
  trousers: 500,
  jeans: 700,
  dress: 500,
  skirt: 400,
  shirt: 300,
  blouse: 300,
  tshirt: 200,
  top: 200,
  'knit-top': 400,
  shorts: 300,
  jumpsuit: 600,
  bag: 800,
  scarf: 250,
  hat: 200,
  belt: 200,
  boots: 1500,
  shoes: 1000,
  'gift-card': 50,
  // The free garment cover that goes with a coat (a thin zipped bag).
  'garment-cover': 300,
};

/** An item of a kind the table does not know. */
export const FALLBACK_WEIGHT_GRAMS = 800;

/** The cardboard box of every parcel, and each gift garment cover (shipment.md). */
export const PACKAGING_GRAMS = { box: 300, giftCover: 350 } as const;

/**
 * Box size: one item goes in a 40×30×10 cm box; each further item adds 8 cm of height, up to
 * 50 cm (a bigger order still travels as one calculated package: the tariff is an estimate).
 * Gift covers wrap the coat they come with and add no height.
 */
export const PARCEL_BOX_CM = { length: 40, width: 30, height: 10 } as const;
export const PARCEL_HEIGHT_PER_ITEM_CM = 8;
export const PARCEL_MAX_HEIGHT_CM = 50;

export interface ParcelLine {
  kind: string;
  /** The product's own weight of one item; null (or not a positive number): the kind's default. */
  weightGrams: number | null;
  quantity: number;
  /** The gift garment cover line. */
  isGift?: boolean;
}

export interface Parcel {
  /** Grams. */
  weight: number;
  /** Centimetres. */
  length: number;
  width: number;
  height: number;
}

function itemWeight(line: ParcelLine): number {
  if (line.weightGrams !== null && Number.isFinite(line.weightGrams) && line.weightGrams > 0)
    return Math.round(line.weightGrams);
  if (line.isGift) return PACKAGING_GRAMS.giftCover;
  return DEFAULT_WEIGHT_GRAMS[line.kind] ?? FALLBACK_WEIGHT_GRAMS;
}

/** The package of an order: items plus the box (grams), and the box size (cm). */
export function parcel(lines: readonly ParcelLine[]): Parcel {
  let weight = PACKAGING_GRAMS.box;
  let count = 0;
  for (const line of lines) {
    const quantity = items(line.quantity);
    weight += itemWeight(line) * quantity;
    if (!line.isGift) count += quantity;
  }
  const height = Math.min(
    PARCEL_BOX_CM.height + PARCEL_HEIGHT_PER_ITEM_CM * Math.max(0, count - 1),
    PARCEL_MAX_HEIGHT_CM,
  );
  return { weight, length: PARCEL_BOX_CM.length, width: PARCEL_BOX_CM.width, height };
}

/**
 * Whether a parcel can go to a CDEK point: within the point's weight_max (kilograms, as CDEK's
 * /deliverypoints gives it; absent: no limit known) and, when the point lists its cells
 * (postamats), inside at least one of them in some orientation.
 */
export function fitsDeliveryPoint(
  p: Parcel,
  point: {
    weight_max?: number | null;
    dimensions?: readonly { width: number; height: number; depth: number }[] | null;
  },
): boolean {
  if (point.weight_max != null && p.weight > point.weight_max * 1000) return false;
  if (!point.dimensions || point.dimensions.length === 0) return true;
  const sides = [p.length, p.width, p.height].sort((a, b) => a - b);
  return point.dimensions.some((cell) => {
    const room = [cell.width, cell.height, cell.depth].sort((a, b) => a - b);
    return sides.every((side, i) => side <= (room[i] ?? 0));
  });
}

// ---------------------------------------------------------------------------------------
// Methods
// ---------------------------------------------------------------------------------------

/**
 * Delivery methods for a city: Moscow has our courier (within the ring road) and CDEK (which
 * serves addresses outside it); other cities CDEK reaches get CDEK; the world entry and any
 * city the shop does not know get international delivery by agreement. Nothing for an empty basket.
 */
export function deliveryMethodIds(input: {
  city: ShopCity | null;
  hasItems: boolean;
  onlyElectronic?: boolean;
}): string[] {
  const { city, hasItems } = input;
  if (!hasItems) return [];
  // Electronic gift certificates only: nothing to carry, the card goes to the order's e-mail.
  if (input.onlyElectronic) return [DELIVERY_ID.email];
  if (city === null || city.deliveryRegion === 'world' || city.cdekCode === null) return [DELIVERY_ID.world];
  if (city.deliveryRegion === 'moscow')
    return [DELIVERY_ID.moscowCourier, DELIVERY_ID.cdekPickup, DELIVERY_ID.cdekDoor];
  return [DELIVERY_ID.cdekPickup, DELIVERY_ID.cdekDoor];
}

const DELIVERY_IDS: readonly string[] = Object.values(DELIVERY_ID);

export function isDeliveryId(id: string): id is DeliveryId {
  return DELIVERY_IDS.includes(id);
}

/** Pay in parts (dolyami.md, yandex-split.md): online, so with every delivery card online goes with. */
export const INSTALMENT_PAYMENT_IDS: readonly string[] = [PAYMENT_ID.dolyami, PAYMENT_ID.yandexSplit];

export function isInstalmentPaymentId(id: string): boolean {
  return INSTALMENT_PAYMENT_IDS.includes(id);
}

/** Paid online before the order goes ahead: the order waits for a verified payment. */
export function isOnlinePaymentId(id: string): boolean {
  return id === PAYMENT_ID.cardOnline || isInstalmentPaymentId(id);
}

/**
 * Payment methods for a delivery: on receipt only with our Moscow courier (paid after the
 * fitting) and only without pre-orders (pre-order.md: paid when ordered); card online and the
 * two pay-in-parts services with every method (pre-orders included: dolyami.md, yandex-split.md;
 * their amount limits are checked apart, core/instalments.ts). Gift certificates are paid
 * online only (podarochnye-sertifikaty.md: card; the issue adds pay in parts). An unknown
 * delivery id allows none.
 */
export function paymentMethodIds(input: {
  deliveryId: string;
  hasPreorders: boolean;
  hasCertificates?: boolean;
}): string[] {
  if (!isDeliveryId(input.deliveryId)) return [];
  const online = [PAYMENT_ID.cardOnline, ...INSTALMENT_PAYMENT_IDS];
  const all =
    input.deliveryId === DELIVERY_ID.moscowCourier && !input.hasPreorders ? [PAYMENT_ID.onReceipt, ...online] : online;
  return input.hasCertificates ? all.filter(paysForCertificates) : all;
}

/** Gift certificates are paid online only (podarochnye-sertifikaty.md: card; the issue adds pay in parts): the one rule. */
export function paysForCertificates(paymentId: string): boolean {
  return isOnlinePaymentId(paymentId);
}

/** The delivery methods (of `deliveryIds`) a payment method can be chosen with: the PaymentMethod DELIVERY_IDS list. */
export function paymentDeliveryIds(
  paymentId: string,
  input: { deliveryIds: readonly string[]; hasPreorders: boolean; hasCertificates?: boolean },
): string[] {
  return input.deliveryIds.filter((deliveryId) =>
    paymentMethodIds({ deliveryId, hasPreorders: input.hasPreorders, hasCertificates: input.hasCertificates }).includes(
      paymentId,
    ),
  );
}

/** Whether CDEK carries the order (to a pickup point or the door): it is registered with CDEK and needs a track number to ship. */
export function isCdekDeliveryId(deliveryId: string | null): boolean {
  return deliveryId === DELIVERY_ID.cdekPickup || deliveryId === DELIVERY_ID.cdekDoor;
}

/** What the checkout needs from the shopper for a method (contract DeliveryMethod.MODE). */
export function deliveryMode(deliveryId: string): 'address' | 'pickup' | 'contact' | 'email' {
  if (deliveryId === DELIVERY_ID.cdekPickup) return 'pickup';
  if (deliveryId === DELIVERY_ID.world) return 'contact';
  if (deliveryId === DELIVERY_ID.email) return 'email';
  return 'address';
}

/**
 * The e-mail delivery's name and description, on its own: the product page of an electronic
 * certificate shows it, and the whole of DELIVERY_TEXT (about 1 KB compressed) would otherwise
 * ride in every product page's code (issue #33).
 */
export const EMAIL_DELIVERY_TEXT = {
  name: 'На электронную почту',
  description:
    'Электронный сертификат придёт на e-mail, указанный в заказе, в течение часа после оплаты — в виде открытки с уникальным номером.',
} as const;

/** Russian names and descriptions of the delivery and payment methods (delivery.md). */
export const DELIVERY_TEXT = {
  delivery: {
    '1': {
      name: 'Курьером по Москве',
      description:
        'В пределах МКАД, на следующий рабочий день при заказе до 18:00. 15 минут на примерку — оплачиваете только то, что оставили.',
    },
    '139': {
      name: 'Пункт выдачи СДЭК',
      description:
        'Выберите удобный пункт на карте: в нём указаны адрес и часы работы. Стоимость и сроки рассчитываются автоматически.',
    },
    '137': {
      name: 'Курьером СДЭК до двери',
      description:
        'Курьер СДЭК привезёт заказ по указанному адресу в согласованный день. Стоимость и сроки рассчитываются автоматически.',
    },
    '300': EMAIL_DELIVERY_TEXT,
    '200': {
      name: 'Международная доставка',
      description:
        'В другие страны — международной курьерской службой по договорённости: менеджер свяжется с вами и рассчитает стоимость и сроки. Таможенные пошлины и сборы, если они есть, оплачивает получатель.',
    },
  },
  payment: {
    '1': {
      name: 'При получении',
      description: 'Картой или через СБП после примерки — только за вещи, которые оставите',
    },
    '9': { name: 'Банковской картой онлайн', description: 'Yandex Pay, платёжные сервисы банков, СБП' },
    '10': {
      name: 'Долями',
      description: 'Четыре платежа по 25%: первый сегодня, остальные каждые две недели. Для заказов от 500 до 40 000 ₽',
    },
    '11': {
      name: 'Яндекс Сплит',
      description:
        'Четыре равных платежа: первый сегодня, остальные каждые две недели, через Яндекс ID. Для заказов от 500 до 40 000 ₽',
    },
  },
} as const satisfies {
  delivery: Record<DeliveryId, { name: string; description: string }>;
  payment: Record<PaymentId, { name: string; description: string }>;
};
