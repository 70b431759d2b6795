// The CDEK seam (INTEGRATIONS.md §2): checkout asks this interface, never CDEK directly, so a
// machine with no internet runs the same code paths. Field names are CDEK API v2's.

export interface CdekLocation {
  country_code: string;
  region: string;
  city_code: number;
  city: string;
  postal_code: string;
  longitude: number;
  latitude: number;
  /** Street and house. */
  address: string;
  /** Country, region, city, street, house, with postal code. */
  address_full: string;
}

/** `GET /deliverypoints` item (the fields the shop reads; CDEK sends more). */
export interface CdekDeliveryPoint {
  code: string;
  name: string;
  type: 'PVZ' | 'POSTAMAT';
  location: CdekLocation;
  address_comment: string;
  nearest_metro_station: string | null;
  /** 'Пн-Пт 10:00-20:00, Сб-Вс 10:00-18:00'. */
  work_time: string;
  work_time_list: { day: number; time: string }[];
  phones: { number: string }[];
  note: string;
  is_dressing_room: boolean;
  take_only: boolean;
  have_cashless: boolean;
  allowed_cod: boolean;
  /** Kilograms. */
  weight_max: number;
  /** Parcel lockers' cells in centimetres (CDEK sends them for postamats); absent for pickup points. */
  dimensions?: { width: number; height: number; depth: number }[] | null;
}

export interface CdekPackage {
  /** Grams. */
  weight: number;
  /** Centimetres. */
  length: number;
  width: number;
  height: number;
}

/** Parcel tariffs (INTEGRATIONS.md §2): 136 warehouse → pickup point, 137 warehouse → door. */
export const CDEK_TARIFF = { toPoint: 136, toDoor: 137 } as const;

export interface TariffRequest {
  tariff_code: number;
  from_location: { code: number };
  to_location: { code: number };
  packages: CdekPackage[];
}

/** `POST /calculator/tariff` answer: sums in roubles, periods in days. */
export interface TariffResult {
  delivery_sum: number;
  period_min: number;
  period_max: number;
  total_sum: number;
  currency: string;
}

export interface TariffListItem {
  tariff_code: number;
  tariff_name: string;
  delivery_mode: number;
  delivery_sum: number;
  period_min: number;
  period_max: number;
}

export interface CdekOrderItem {
  name: string;
  ware_key: string;
  payment: { value: number };
  /** Roubles, declared value. */
  cost: number;
  weight: number;
  amount: number;
}

/** `POST /orders` body (type 1: an online shop's order). */
export interface CdekOrderRequest {
  type: 1;
  /** The shop's order number. */
  number: string;
  tariff_code: number;
  delivery_point?: string;
  to_location?: { code?: number; address: string; postal_code?: string };
  from_location?: { code: number; address?: string };
  shipment_point?: string;
  recipient: { name: string; email?: string; phones: { number: string }[] };
  packages: (CdekPackage & { number: string; items: CdekOrderItem[] })[];
}

export interface CdekOrderState {
  uuid: string;
  /** ACCEPTED, WAITING, SUCCESSFUL or INVALID (the CREATE request's state). */
  state: string;
  /** The track number, once CDEK has assigned it. */
  cdek_number: string | null;
  errors: string[];
}

/** A CDEK call that failed (network, HTTP status, an `errors` answer); `message` is for the log. */
export class CdekError extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'CdekError';
  }
}

export interface CdekClient {
  readonly kind: 'offline' | 'cdek';
  /** `GET /deliverypoints?city_code=&type=`: pickup points and parcel lockers of a city. Rejects with CdekError. */
  deliveryPoints(query: { city_code: number; type?: 'PVZ' | 'POSTAMAT' | 'ALL' }): Promise<CdekDeliveryPoint[]>;
  /** `POST /calculator/tariff`. Rejects with CdekError (no tariff for the route included). */
  calculateTariff(request: TariffRequest): Promise<TariffResult>;
  /** `POST /calculator/tarifflist`: every tariff for the route (the map widget's proxy). */
  tariffList(request: Omit<TariffRequest, 'tariff_code'>): Promise<TariffListItem[]>;
  /** `POST /orders`: registers an order; processing is asynchronous. */
  createOrder(request: CdekOrderRequest): Promise<CdekOrderState>;
  /** `GET /orders/{uuid}`: the state and, once assigned, the track number. */
  getOrder(uuid: string): Promise<CdekOrderState>;
}
