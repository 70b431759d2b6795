import { inArray, eq } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { offers, products } from '~/db/schema';
import { GIFT_COVER_OFFER_ID } from '~/core/basket';
import type { PricedBasket, ReconciledBasket } from '~/core/basket-pricing';
import type { ShopCity } from '~/core/delivery-cities';
import {
  carrierDeliveryDates,
  courierDeliveryDate,
  courierTrips,
  courierTripsNote,
  MOSCOW_COURIER_PRICE_KOPECKS,
  parcel,
  periodText,
  preorderDeliveryDates,
  preorderLaterNote,
  preorderPeriodText,
  REGION_DAYS,
} from '~/core/delivery';
import { deliveryDatesText } from '~/core/order-notice';
import { DELIVERY_ID } from '~/shared/contract';
import { CDEK_TARIFF, type CdekClient, type CdekDeliveryPoint } from '~/integrations/cdek/cdek';
import { loadRequestedBasket, type BasketCatalog, type BasketRequest } from './basket.server';

// What checkout needs to know of a basket and of a delivery: the basket priced by the server
// (as get_cart.php prices it), the parcel it makes, and a delivery quote per method. CDEK's
// answers are kept in process for a short while (pickup points ten minutes, tariffs one), so
// a shopper trying methods does not call CDEK on every click and get_order_params stays fast.

export interface ParcelLine {
  offerId: number;
  kind: string;
  weightGrams: number | null;
  quantity: number;
  isGift: boolean;
}

export interface CheckoutBasket {
  basket: ReconciledBasket;
  /** The catalogue the basket was priced from (read in this request): the order prices from it too. */
  catalog: BasketCatalog;
  priced: PricedBasket;
  parcelLines: ParcelLine[];
  isEmpty: boolean;
  hasPreorders: boolean;
  /** How much of the basket is pre-ordered: the delivery dates follow the pre-orders'. */
  preorders: PreorderShare;
  /** Gift certificates in the basket: paid online only. */
  hasCertificates: boolean;
  /** Only electronic certificates: delivered by e-mail (DELIVERY_ID.email), nothing else. */
  onlyElectronic: boolean;
}

export async function loadCheckoutBasket(request: BasketRequest): Promise<CheckoutBasket> {
  const { basket, priced, catalog } = await loadRequestedBasket(request);
  // The parcel's kinds and weights come with the catalogue read (no statement of their own).
  const parcelLines = priced.lines.map((l) => ({
    offerId: l.offerId,
    kind: catalog.offers.get(l.offerId)?.kind ?? '',
    weightGrams: catalog.offers.get(l.offerId)?.weightGrams ?? null,
    quantity: l.quantity,
    isGift: l.isGift,
  }));
  return {
    basket,
    catalog,
    priced,
    parcelLines,
    isEmpty: basket.cart.length === 0 && basket.preorders.length === 0,
    hasPreorders: basket.preorders.length > 0,
    preorders:
      basket.preorders.length === 0
        ? 'none'
        : basket.cart.some((l) => l.offerId !== GIFT_COVER_OFFER_ID)
          ? 'some'
          : 'all',
    hasCertificates: priced.lines.some((l) => l.certificate !== null),
    onlyElectronic:
      priced.lines.some((l) => !l.isGift) && priced.lines.every((l) => l.isGift || l.certificate === 'electronic'),
  };
}

export async function loadParcelKinds(
  db: Database,
  offerIds: number[],
): Promise<Map<number, { kind: string; weightGrams: number | null }>> {
  if (offerIds.length === 0) return new Map();
  const rows = await db
    .select({ offerId: offers.id, kind: products.kind, weightGrams: products.weightGrams })
    .from(offers)
    .innerJoin(products, eq(products.id, offers.productId))
    .where(inArray(offers.id, offerIds));
  return new Map(rows.map((r) => [r.offerId, { kind: r.kind, weightGrams: r.weightGrams }]));
}

export interface DeliveryQuote {
  /** Kopecks; null when it cannot be known online (by agreement, or the calculator failed). */
  costKopecks: number | null;
  /** The reason there is no cost, for the shopper (Russian), or null. */
  costError: string | null;
  periodText: string;
  dateFrom: string | null;
  dateTo: string | null;
  note: string | null;
  trips: number;
  /** A basket that mixes goods in stock and pre-orders: when the pre-orders come (dateFrom/dateTo are the goods'). */
  preorderFrom?: string | null;
  preorderTo?: string | null;
}

/** What of the basket is pre-ordered: its dates follow the pre-order's (pre-order.md). */
export type PreorderShare = 'none' | 'some' | 'all';

export const COST_TO_CONFIRM = 'стоимость уточнит менеджер';
export const COST_BY_AGREEMENT = 'по договорённости';

export interface CheckoutDeps {
  cdek: CdekClient;
  /** The CDEK city code the parcels leave from (the Moscow warehouse). */
  fromCityCode: number;
  log: { warn(obj: object, msg: string): void };
}

/**
 * One delivery method's cost, dates and note for this basket and city (SPEC §8: a calculator
 * failure is logged, never thrown). Pre-orders come once made (issue #26): a basket of pre-orders
 * only gets their dates; a mixed one keeps the goods' dates and says when the pre-orders come.
 */
export async function quoteDelivery(
  deps: CheckoutDeps,
  input: {
    city: ShopCity | null;
    deliveryId: string;
    parcelLines: readonly ParcelLine[];
    now?: Date;
    preorders?: PreorderShare;
  },
): Promise<DeliveryQuote> {
  const quote = await quoteInStock(deps, input);
  const share = input.preorders ?? 'none';
  if (share === 'none' || !quote.dateFrom || !quote.dateTo) return quote;
  const later = preorderDeliveryDates({ from: quote.dateFrom, to: quote.dateTo });
  if (share === 'all')
    return { ...quote, dateFrom: later.from, dateTo: later.to, periodText: preorderPeriodText(quote.periodText) };
  const note = preorderLaterNote(deliveryDatesText(later.from, later.to) ?? '');
  return {
    ...quote,
    preorderFrom: later.from,
    preorderTo: later.to,
    note: quote.note ? `${quote.note} ${note}` : note,
  };
}

/** The quote for goods in stock. */
async function quoteInStock(
  deps: CheckoutDeps,
  {
    city,
    deliveryId,
    parcelLines,
    now = new Date(),
  }: { city: ShopCity | null; deliveryId: string; parcelLines: readonly ParcelLine[]; now?: Date },
): Promise<DeliveryQuote> {
  if (deliveryId === DELIVERY_ID.email) {
    return {
      costKopecks: 0,
      costError: null,
      periodText: 'в течение часа после оплаты',
      dateFrom: null,
      dateTo: null,
      note: null,
      trips: 1,
    };
  }
  if (deliveryId === DELIVERY_ID.moscowCourier) {
    const trips = courierTrips(parcelLines.filter((l) => !l.isGift));
    const date = courierDeliveryDate(now);
    return {
      // delivery.md promises 700 ₽ for the order, however many trips its outerwear needs.
      costKopecks: MOSCOW_COURIER_PRICE_KOPECKS,
      costError: null,
      periodText: 'на следующий рабочий день',
      dateFrom: date,
      dateTo: date,
      note: courierTripsNote(trips),
      trips,
    };
  }
  const regionDays =
    city && city.deliveryRegion !== 'world' && city.deliveryRegion !== 'moscow'
      ? REGION_DAYS[city.deliveryRegion]
      : REGION_DAYS.russia;
  if ((deliveryId === DELIVERY_ID.cdekPickup || deliveryId === DELIVERY_ID.cdekDoor) && city?.cdekCode) {
    const tariff = deliveryId === DELIVERY_ID.cdekPickup ? CDEK_TARIFF.toPoint : CDEK_TARIFF.toDoor;
    try {
      const result = await cachedTariff(deps, city.cdekCode, tariff, parcelLines);
      const dates = carrierDeliveryDates(now, { min: result.period_min, max: result.period_max });
      return {
        costKopecks: Math.round(result.delivery_sum * 100),
        costError: null,
        periodText: periodText(result.period_min, result.period_max),
        dateFrom: dates.from,
        dateTo: dates.to,
        note: null,
        trips: 1,
      };
    } catch (err) {
      deps.log.warn(
        { err: err instanceof Error ? err.message : String(err), city: city.cdekCode, tariff },
        'delivery cost failed',
      );
      const dates = carrierDeliveryDates(now, regionDays);
      return {
        costKopecks: null,
        costError: COST_TO_CONFIRM,
        periodText: periodText(regionDays.min, regionDays.max),
        dateFrom: dates.from,
        dateTo: dates.to,
        note: null,
        trips: 1,
      };
    }
  }
  // By agreement: staff work out the cost and the dates with the shopper.
  return {
    costKopecks: null,
    costError: COST_BY_AGREEMENT,
    periodText: COST_BY_AGREEMENT,
    dateFrom: null,
    dateTo: null,
    note: null,
    trips: 1,
  };
}

const TARIFF_TTL_MS = 60_000;
const POINTS_TTL_MS = 10 * 60_000;
const tariffCache = new Map<
  string,
  { at: number; value: Promise<{ delivery_sum: number; period_min: number; period_max: number }> }
>();
const pointsCache = new Map<string, { at: number; value: Promise<CdekDeliveryPoint[]> }>();

function cachedTariff(deps: CheckoutDeps, toCode: number, tariff: number, lines: readonly ParcelLine[]) {
  const box = parcel(lines);
  const key = `${deps.cdek.kind}|${deps.fromCityCode}|${toCode}|${tariff}|${box.weight}|${box.length}x${box.width}x${box.height}`;
  return remember(tariffCache, key, TARIFF_TTL_MS, () =>
    deps.cdek.calculateTariff({
      tariff_code: tariff,
      from_location: { code: deps.fromCityCode },
      to_location: { code: toCode },
      packages: [box],
    }),
  );
}

/** The city's pickup points and parcel lockers (cached; rejects when CDEK fails). */
export function cityPickupPoints(deps: CheckoutDeps, cityCode: number): Promise<CdekDeliveryPoint[]> {
  return remember(pointsCache, `${deps.cdek.kind}|${cityCode}`, POINTS_TTL_MS, () =>
    deps.cdek.deliveryPoints({ city_code: cityCode, type: 'ALL' }),
  );
}

function remember<T>(
  cache: Map<string, { at: number; value: Promise<T> }>,
  key: string,
  ttl: number,
  load: () => Promise<T>,
): Promise<T> {
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < ttl) return hit.value;
  const value = load();
  cache.set(key, { at: Date.now(), value });
  // A failure is not remembered: the next shopper asks again.
  value.catch(() => {
    if (cache.get(key)?.value === value) cache.delete(key);
  });
  if (cache.size > 2000) cache.delete(cache.keys().next().value as string);
  return value;
}

/** Forget cached CDEK answers (tests that change what the stand-in answers). */
export function clearDeliveryCaches(): void {
  tariffCache.clear();
  pointsCache.clear();
}
