import { describe, expect, it } from 'vitest';
import { DELIVERY_ID, PAYMENT_ID } from '~/shared/checkout-ids';
import { GARMENT_KINDS } from '~/shared/art';
import {
  carrierDeliveryDates,
  COURIER_CUTOFF_MINUTES,
  courierDeliveryDate,
  courierTrips,
  courierTripsNote,
  DEFAULT_WEIGHT_GRAMS,
  DELIVERY_TEXT,
  deliveryMethodIds,
  deliveryMode,
  effectiveOrderDay,
  FALLBACK_WEIGHT_GRAMS,
  FITTING_MINUTES,
  fitsDeliveryPoint,
  isCdekDeliveryId,
  isOuterwear,
  MAX_OUTERWEAR_PER_TRIP,
  MOSCOW_COURIER_PRICE_KOPECKS,
  OUTERWEAR_KINDS,
  PACKAGING_GRAMS,
  parcel,
  paymentDeliveryIds,
  paymentMethodIds,
  INSTALMENT_PAYMENT_IDS,
  isInstalmentPaymentId,
  isOnlinePaymentId,
  periodText,
  PREORDER_MAKING_DAYS,
  preorderDeliveryDates,
  preorderLaterNote,
  preorderPeriodText,
  REGION_DAYS,
  regionDays,
  SHIPPING_WORKING_DAYS,
  shipmentDates,
} from './delivery';
import { findShopCity, SHOP_CITIES, WORLD_CITY } from './delivery-cities';

/** A Moscow wall-clock time as the UTC instant the server sees. */
const msk = (local: string): Date => new Date(`${local}:00+03:00`);

describe('constants (SPEC §9, delivery.md)', () => {
  it('match the promises', () => {
    expect(MOSCOW_COURIER_PRICE_KOPECKS).toBe(70_000);
    expect(COURIER_CUTOFF_MINUTES).toBe(1080);
    expect(MAX_OUTERWEAR_PER_TRIP).toBe(2);
    expect(FITTING_MINUTES).toBe(15);
    expect(SHIPPING_WORKING_DAYS).toBe(3);
    expect(REGION_DAYS).toEqual({ russia: { min: 2, max: 9 }, 'by-kz': { min: 3, max: 10 }, cis: { min: 3, max: 14 } });
  });
});

describe('outerwear', () => {
  it('coats, trenches, puffers, fur coats and denim jackets are outerwear', () => {
    for (const kind of ['warm-coat', 'coat', 'trench', 'puffer', 'fur-coat', 'denim-jacket'])
      expect(isOuterwear(kind)).toBe(true);
    for (const kind of ['blazer', 'cardigan', 'dress', 'bag', 'boots', 'gift-card', '', 'COAT'])
      expect(isOuterwear(kind)).toBe(false);
  });
  it('every outerwear kind is a garment kind', () => {
    for (const kind of OUTERWEAR_KINDS) expect(GARMENT_KINDS as readonly string[]).toContain(kind);
  });
});

describe('courierTrips', () => {
  it('is at least one trip', () => {
    expect(courierTrips([])).toBe(1);
    expect(courierTrips([{ kind: 'dress', quantity: 7 }])).toBe(1);
    expect(courierTrips([{ kind: 'coat', quantity: 2 }])).toBe(1);
  });
  it('is ceil(outerwear / 2)', () => {
    expect(courierTrips([{ kind: 'coat', quantity: 3 }])).toBe(2);
    expect(
      courierTrips([
        { kind: 'coat', quantity: 1 },
        { kind: 'trench', quantity: 1 },
        { kind: 'dress', quantity: 5 },
      ]),
    ).toBe(1);
    expect(
      courierTrips([
        { kind: 'warm-coat', quantity: 2 },
        { kind: 'puffer', quantity: 1 },
        { kind: 'fur-coat', quantity: 1 },
      ]),
    ).toBe(2);
  });
  it('5 outerwear items take 3 trips', () => {
    expect(courierTrips([{ kind: 'coat', quantity: 5 }])).toBe(3);
    expect(
      courierTrips([
        { kind: 'coat', quantity: 2 },
        { kind: 'denim-jacket', quantity: 2 },
        { kind: 'trench', quantity: 1 },
      ]),
    ).toBe(3);
  });
  it('gift covers are not outerwear', () => {
    // The seeded cover is kind 'bag'; isGift keeps it out even under an outerwear kind.
    expect(
      courierTrips([
        { kind: 'coat', quantity: 2 },
        { kind: 'bag', quantity: 2, isGift: true },
      ]),
    ).toBe(1);
    expect(
      courierTrips([
        { kind: 'coat', quantity: 2 },
        { kind: 'coat', quantity: 2, isGift: true },
      ]),
    ).toBe(1);
  });
  it('ignores junk quantities', () => {
    expect(
      courierTrips([
        { kind: 'coat', quantity: -4 },
        { kind: 'coat', quantity: Number.NaN },
      ]),
    ).toBe(1);
  });
});

describe('courierTripsNote', () => {
  it('is null for one trip', () => {
    expect(courierTripsNote(1)).toBeNull();
    expect(courierTripsNote(0)).toBeNull();
  });
  it('tells the number of trips with the right word', () => {
    expect(courierTripsNote(2)).toBe(
      'Курьер привозит не больше двух изделий верхней одежды за выезд, поэтому заказ приедет за 2 выезда — время каждого согласуем с вами.',
    );
    expect(courierTripsNote(4)).toContain('за 4 выезда —');
    expect(courierTripsNote(5)).toContain('за 5 выездов —');
    expect(courierTripsNote(11)).toContain('за 11 выездов —');
    expect(courierTripsNote(21)).toContain('за 21 выезд —');
  });
});

describe('courierDeliveryDate', () => {
  it('before 18:00 on a working day: the next working day', () => {
    expect(courierDeliveryDate(msk('2026-11-24T10:00'))).toBe('2026-11-25');
    expect(courierDeliveryDate(new Date('2026-11-24T14:59:59Z'))).toBe('2026-11-25');
  });
  it('from 18:00: the working day after next', () => {
    expect(courierDeliveryDate(new Date('2026-11-24T15:00:00Z'))).toBe('2026-11-26');
    expect(courierDeliveryDate(msk('2026-11-24T23:59'))).toBe('2026-11-26');
  });
  it('Friday 17:59 → Monday, Friday 18:00 → Tuesday', () => {
    expect(courierDeliveryDate(new Date('2026-11-27T14:59:00Z'))).toBe('2026-11-30');
    expect(courierDeliveryDate(new Date('2026-11-27T15:00:00Z'))).toBe('2026-12-01');
  });
  it('Saturday or Sunday, any time → Tuesday', () => {
    expect(courierDeliveryDate(msk('2026-11-28T09:00'))).toBe('2026-12-01');
    expect(courierDeliveryDate(msk('2026-11-29T17:00'))).toBe('2026-12-01');
  });
  it('a Moscow morning that is still the previous day in UTC', () => {
    // 2026-11-27 23:30 UTC is Saturday 02:30 in Moscow.
    expect(courierDeliveryDate(new Date('2026-11-27T23:30:00Z'))).toBe('2026-12-01');
  });
  it('skips the New Year holidays', () => {
    expect(courierDeliveryDate(msk('2026-12-30T12:00'))).toBe('2026-12-31');
    expect(courierDeliveryDate(msk('2026-12-30T18:00'))).toBe('2027-01-11');
    expect(courierDeliveryDate(msk('2026-12-31T12:00'))).toBe('2027-01-11');
    expect(courierDeliveryDate(msk('2027-01-03T12:00'))).toBe('2027-01-12');
  });
  it('skips the May holidays', () => {
    // 2026: May 1 is a Friday.
    expect(courierDeliveryDate(msk('2026-04-30T17:00'))).toBe('2026-05-04');
    expect(courierDeliveryDate(msk('2026-04-30T19:00'))).toBe('2026-05-05');
    expect(courierDeliveryDate(msk('2026-05-01T10:00'))).toBe('2026-05-05');
    // 2026-05-08 is a Friday, May 9 a Saturday (the carry-over to Monday is not modelled).
    expect(courierDeliveryDate(msk('2026-05-08T10:00'))).toBe('2026-05-11');
  });
  it('effectiveOrderDay is the day the order counts from', () => {
    expect(effectiveOrderDay(msk('2026-11-27T17:59'))).toBe('2026-11-27');
    expect(effectiveOrderDay(msk('2026-11-27T18:00'))).toBe('2026-11-30');
    expect(effectiveOrderDay(msk('2026-11-28T08:00'))).toBe('2026-11-30');
  });
});

describe('shipmentDates', () => {
  it('first to third working day after the order day', () => {
    expect(shipmentDates(msk('2026-11-24T12:00'))).toEqual({ earliest: '2026-11-25', latest: '2026-11-27' });
    expect(shipmentDates(msk('2026-11-26T12:00'))).toEqual({ earliest: '2026-11-27', latest: '2026-12-01' });
  });
  it('a Friday evening order is assembled from Monday (shipment.md)', () => {
    expect(shipmentDates(msk('2026-11-27T20:00'))).toEqual({ earliest: '2026-12-01', latest: '2026-12-03' });
    expect(shipmentDates(msk('2026-11-27T17:59'))).toEqual({ earliest: '2026-11-30', latest: '2026-12-02' });
  });
  it('skips the New Year break', () => {
    expect(shipmentDates(msk('2026-12-30T10:00'))).toEqual({ earliest: '2026-12-31', latest: '2027-01-12' });
  });
});

describe('carrierDeliveryDates', () => {
  it('adds the region period in calendar days to the shipment window', () => {
    expect(carrierDeliveryDates(msk('2026-11-24T12:00'), REGION_DAYS.russia)).toEqual({
      from: '2026-11-27',
      to: '2026-12-06',
    });
    expect(carrierDeliveryDates(msk('2026-11-24T12:00'), REGION_DAYS.cis)).toEqual({
      from: '2026-11-28',
      to: '2026-12-11',
    });
    expect(carrierDeliveryDates(msk('2026-12-30T10:00'), REGION_DAYS['by-kz'])).toEqual({
      from: '2027-01-03',
      to: '2027-01-22',
    });
  });
  it('regionDays gives the table entry, null for Moscow and the world', () => {
    expect(regionDays('russia')).toEqual({ min: 2, max: 9 });
    expect(regionDays('by-kz')).toEqual({ min: 3, max: 10 });
    expect(regionDays('cis')).toEqual({ min: 3, max: 14 });
    expect(regionDays('moscow')).toBeNull();
    expect(regionDays('world')).toBeNull();
  });
});

describe('pre-order dates (pre-order.md, issue #26)', () => {
  it('counts the method’s dates from when the item is made: two to four weeks later', () => {
    expect(PREORDER_MAKING_DAYS).toEqual({ min: 14, max: 28 });
    // The Moscow courier's next working day, 1 December: a pre-order comes 15–29 December.
    expect(preorderDeliveryDates({ from: '2026-12-01', to: '2026-12-01' })).toEqual({
      from: '2026-12-15',
      to: '2026-12-29',
    });
    const cdek = carrierDeliveryDates(msk('2026-11-24T12:00'), REGION_DAYS.russia);
    expect(preorderDeliveryDates(cdek)).toEqual({ from: '2026-12-11', to: '2027-01-03' });
  });
  it('says so in the timing and in the note of a mixed order', () => {
    expect(preorderPeriodText('2–9 дней')).toBe('2–9 дней после изготовления');
    expect(preorderLaterNote('15 — 29 декабря')).toBe(
      'Предзаказ привезём отдельно, когда он будет готов: ожидаемая доставка 15 — 29 декабря.',
    );
  });
});

describe('periodText', () => {
  it('writes a Russian period with an en dash', () => {
    expect(periodText(2, 9)).toBe('2–9 дней');
    expect(periodText(3, 10)).toBe('3–10 дней');
    expect(periodText(3, 14)).toBe('3–14 дней');
    expect(periodText(1, 2)).toBe('1–2 дня');
    expect(periodText(3, 3)).toBe('3 дня');
    expect(periodText(1, 1)).toBe('1 день');
    expect(periodText(5, 21)).toBe('5–21 день');
  });
  it('refuses a period that is not one', () => {
    expect(() => periodText(5, 2)).toThrow(RangeError);
    expect(() => periodText(-1, 2)).toThrow(RangeError);
    expect(() => periodText(1.5, 2)).toThrow(RangeError);
  });
});

describe('parcel', () => {
  it('has a default weight for every garment kind', () => {
    for (const kind of GARMENT_KINDS) expect(DEFAULT_WEIGHT_GRAMS[kind], kind).toBeGreaterThan(0);
    expect(DEFAULT_WEIGHT_GRAMS['warm-coat']).toBe(2000);
  });
  it('one item: its weight plus the box, in a 40×30×10 box', () => {
    expect(parcel([{ kind: 'dress', weightGrams: null, quantity: 1 }])).toEqual({
      weight: 500 + PACKAGING_GRAMS.box,
      length: 40,
      width: 30,
      height: 10,
    });
  });
  it("a product's own weight wins over its kind's default", () => {
    expect(parcel([{ kind: 'coat', weightGrams: 1850, quantity: 2 }]).weight).toBe(3700 + 300);
    expect(parcel([{ kind: 'coat', weightGrams: 0, quantity: 1 }]).weight).toBe(1600 + 300);
  });
  it('an unknown kind uses the fallback', () => {
    expect(parcel([{ kind: 'umbrella', weightGrams: null, quantity: 1 }]).weight).toBe(FALLBACK_WEIGHT_GRAMS + 300);
  });
  it('gift covers weigh 350 g each and add no height', () => {
    const p = parcel([
      { kind: 'warm-coat', weightGrams: null, quantity: 2 },
      { kind: 'bag', weightGrams: null, quantity: 2, isGift: true },
    ]);
    expect(p).toEqual({ weight: 4000 + 700 + 300, length: 40, width: 30, height: 18 });
  });
  it('height grows 8 cm per item above one, up to 50 cm', () => {
    expect(parcel([{ kind: 'tshirt', weightGrams: null, quantity: 3 }]).height).toBe(26);
    expect(parcel([{ kind: 'tshirt', weightGrams: null, quantity: 6 }]).height).toBe(50);
    expect(parcel([{ kind: 'tshirt', weightGrams: null, quantity: 40 }]).height).toBe(50);
  });
  it('an empty order is the empty box', () => {
    expect(parcel([])).toEqual({ weight: 300, length: 40, width: 30, height: 10 });
  });
});

describe('fitsDeliveryPoint', () => {
  const coat = parcel([
    { kind: 'warm-coat', weightGrams: null, quantity: 1 },
    { kind: 'bag', weightGrams: null, quantity: 1, isGift: true },
  ]);
  it('a postamat takes a parcel within its weight_max', () => {
    expect(coat.weight).toBe(2650);
    expect(fitsDeliveryPoint(coat, { weight_max: 5 })).toBe(true);
    expect(fitsDeliveryPoint(coat, { weight_max: 2.65 })).toBe(true);
    expect(fitsDeliveryPoint(coat, { weight_max: 2 })).toBe(false);
  });
  it('a postamat cell must hold the box in some orientation', () => {
    expect(fitsDeliveryPoint(coat, { weight_max: 20, dimensions: [{ width: 30, height: 10, depth: 40 }] })).toBe(true);
    expect(fitsDeliveryPoint(coat, { weight_max: 20, dimensions: [{ width: 10, height: 40, depth: 30 }] })).toBe(true);
    expect(
      fitsDeliveryPoint(coat, {
        weight_max: 20,
        dimensions: [
          { width: 20, height: 8, depth: 30 },
          { width: 45, height: 45, depth: 45 },
        ],
      }),
    ).toBe(true);
    expect(fitsDeliveryPoint(coat, { weight_max: 20, dimensions: [{ width: 30, height: 9, depth: 40 }] })).toBe(false);
  });
  it('no limits known: it fits', () => {
    expect(fitsDeliveryPoint(coat, {})).toBe(true);
    expect(fitsDeliveryPoint(coat, { weight_max: null, dimensions: [] })).toBe(true);
  });
});

describe('deliveryMethodIds', () => {
  const moscow = findShopCity('Москва');
  const spb = findShopCity('Санкт-Петербург');
  const minsk = findShopCity('Минск');
  const yerevan = findShopCity('Ереван');
  it('Moscow: our courier and both CDEK methods', () => {
    expect(deliveryMethodIds({ city: moscow, hasItems: true })).toEqual(['1', '139', '137']);
  });
  it('other cities CDEK serves: CDEK only', () => {
    for (const city of [spb, minsk, yerevan])
      expect(deliveryMethodIds({ city, hasItems: true })).toEqual(['139', '137']);
    for (const city of SHOP_CITIES.filter((c) => c.deliveryRegion !== 'moscow' && c.cdekCode !== null)) {
      expect(deliveryMethodIds({ city, hasItems: true })).toEqual([DELIVERY_ID.cdekPickup, DELIVERY_ID.cdekDoor]);
    }
  });
  it('the world entry or an unknown city: by agreement', () => {
    expect(deliveryMethodIds({ city: WORLD_CITY, hasItems: true })).toEqual(['200']);
    expect(deliveryMethodIds({ city: null, hasItems: true })).toEqual(['200']);
  });
  it('an empty basket has no methods', () => {
    expect(deliveryMethodIds({ city: moscow, hasItems: false })).toEqual([]);
    // Electronic gift certificates only: by e-mail, wherever the shopper is, paid online only.
    for (const city of [moscow, spb, null])
      expect(deliveryMethodIds({ city, hasItems: true, onlyElectronic: true })).toEqual([DELIVERY_ID.email]);
    expect(paymentMethodIds({ deliveryId: DELIVERY_ID.email, hasPreorders: false, hasCertificates: true })).toEqual([
      '9',
      '10',
      '11',
    ]);
    expect(deliveryMethodIds({ city: null, hasItems: false })).toEqual([]);
  });
  it('deliveryMode says what the form needs', () => {
    expect(deliveryMode('1')).toBe('address');
    expect(deliveryMode('137')).toBe('address');
    expect(deliveryMode('139')).toBe('pickup');
    expect(deliveryMode('200')).toBe('contact');
  });
  it('isCdekDeliveryId: the pickup point and the door, nothing else', () => {
    expect([DELIVERY_ID.cdekPickup, DELIVERY_ID.cdekDoor].every(isCdekDeliveryId)).toBe(true);
    for (const id of [DELIVERY_ID.moscowCourier, DELIVERY_ID.world, DELIVERY_ID.email, null])
      expect(isCdekDeliveryId(id)).toBe(false);
  });
});

describe('paymentMethodIds', () => {
  it('on receipt only with the Moscow courier and no pre-orders', () => {
    expect(paymentMethodIds({ deliveryId: '1', hasPreorders: false })).toEqual(['1', '9', '10', '11']);
    expect(paymentMethodIds({ deliveryId: '1', hasPreorders: true })).toEqual(['9', '10', '11']);
  });
  it('card online with every method', () => {
    for (const deliveryId of Object.values(DELIVERY_ID)) {
      for (const hasPreorders of [false, true])
        expect(paymentMethodIds({ deliveryId, hasPreorders })).toContain(PAYMENT_ID.cardOnline);
    }
    for (const deliveryId of ['139', '137', '200'])
      expect(paymentMethodIds({ deliveryId, hasPreorders: false })).toEqual(['9', '10', '11']);
  });
  it('pay in parts (Dolyami, Yandex Split) wherever card online goes, pre-orders included', () => {
    for (const deliveryId of Object.values(DELIVERY_ID)) {
      for (const hasPreorders of [false, true]) {
        const ids = paymentMethodIds({ deliveryId, hasPreorders });
        expect(ids).toContain(PAYMENT_ID.dolyami);
        expect(ids).toContain(PAYMENT_ID.yandexSplit);
      }
    }
    expect(INSTALMENT_PAYMENT_IDS.every((id) => isOnlinePaymentId(id) && isInstalmentPaymentId(id))).toBe(true);
    expect(isOnlinePaymentId(PAYMENT_ID.cardOnline)).toBe(true);
    expect(isInstalmentPaymentId(PAYMENT_ID.cardOnline) || isOnlinePaymentId(PAYMENT_ID.onReceipt)).toBe(false);
    expect(DELIVERY_TEXT.payment['10'].name).toBe('Долями');
    expect(DELIVERY_TEXT.payment['11'].name).toBe('Яндекс Сплит');
  });
  it('an unknown delivery allows no payment', () => {
    expect(paymentMethodIds({ deliveryId: '999', hasPreorders: false })).toEqual([]);
    expect(paymentMethodIds({ deliveryId: '', hasPreorders: false })).toEqual([]);
  });
  it('paymentDeliveryIds lists the deliveries a payment goes with', () => {
    const deliveryIds = ['1', '139', '137'];
    expect(paymentDeliveryIds('1', { deliveryIds, hasPreorders: false })).toEqual(['1']);
    expect(paymentDeliveryIds('1', { deliveryIds, hasPreorders: true })).toEqual([]);
    expect(paymentDeliveryIds('9', { deliveryIds, hasPreorders: true })).toEqual(deliveryIds);
  });
});

describe('DELIVERY_TEXT', () => {
  it('names every delivery and payment method', () => {
    for (const id of Object.values(DELIVERY_ID)) expect(DELIVERY_TEXT.delivery[id].name).not.toBe('');
    for (const id of Object.values(PAYMENT_ID)) expect(DELIVERY_TEXT.payment[id].name).not.toBe('');
    expect(DELIVERY_TEXT.delivery['1'].name).toBe('Курьером по Москве');
    expect(DELIVERY_TEXT.delivery['139'].name).toBe('Пункт выдачи СДЭК');
    expect(DELIVERY_TEXT.delivery['137'].name).toBe('Курьером СДЭК до двери');
    expect(DELIVERY_TEXT.delivery['200'].name).toBe('Международная доставка');
    expect(DELIVERY_TEXT.payment['1'].name).toBe('При получении');
    expect(DELIVERY_TEXT.payment['9'].name).toBe('Банковской картой онлайн');
  });
  it('keeps the promises of delivery.md', () => {
    expect(DELIVERY_TEXT.delivery['1'].description).toContain('МКАД');
    expect(DELIVERY_TEXT.delivery['1'].description).toContain('18:00');
    expect(DELIVERY_TEXT.delivery['1'].description).toContain(`${FITTING_MINUTES} минут`);
    expect(DELIVERY_TEXT.delivery['200'].description).toContain('по договорённости');
    expect(DELIVERY_TEXT.payment['9'].description).not.toMatch(/Apple|Google/);
  });
});
