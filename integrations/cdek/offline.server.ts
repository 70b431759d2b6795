import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { SHOP_CITIES, type ShopCity } from '~/core/delivery-cities';
import { CDEK_TARIFF, CdekError } from './cdek';
import type {
  CdekClient,
  CdekDeliveryPoint,
  CdekOrderRequest,
  CdekOrderState,
  TariffListItem,
  TariffRequest,
  TariffResult,
} from './cdek';
import { OFFLINE_POINTS, SCHEDULES, type CityPoints, type PointSeed } from './offline-points';

// The offline stand-in for CDEK (INTEGRATIONS.md §2): seeded pickup points with CDEK's field
// names, a fixed tariff table, and orders that are ACCEPTED at once and SUCCESSFUL (with a
// made-up track number) when read back. Nothing leaves the machine; each registered order is
// one JSON line in <outboxDir>/cdek.jsonl, so people and tests can read what was sent.

export const CDEK_OUTBOX_FILE = 'cdek.jsonl';

/** Heaviest parcel the table prices (CDEK's parcel tariffs stop at 30 kg a place; 100 kg an order here). */
export const OFFLINE_MAX_WEIGHT_GRAMS = 100_000;

const DEFAULT_COMMENTS = [
  'Вход со двора, вывеска СДЭК',
  'Вход с улицы, вывеска СДЭК',
  'Отдельный вход с торца здания, вывеска СДЭК',
];

/** Parcel-locker cells (centimetres), S, M and L as CDEK's lockers have them. */
const POSTAMAT_CELLS = [
  { width: 36, height: 9, depth: 60 },
  { width: 36, height: 19, depth: 60 },
  { width: 36, height: 39, depth: 60 },
];

/** A phone made from the city prefix and the point number: stable, never a real line. */
function phone(city: CityPoints, seed: PointSeed): string {
  const span = 8 * 10 ** (city.phoneDigits - 1);
  const tail = 2 * 10 ** (city.phoneDigits - 1) + ((seed.n * 7919 + city.cityCode * 104_729) % span);
  return `${city.phonePrefix}${tail}`;
}

function buildPoint(city: CityPoints, seed: PointSeed, index: number): CdekDeliveryPoint {
  const schedule = SCHEDULES[seed.schedule ?? 'standard'];
  const work_time_list = schedule.days.flatMap(([first, last, time]) =>
    Array.from({ length: last - first + 1 }, (_, i) => ({ day: first + i, time })),
  );
  const street = seed.address.split(',')[0] ?? seed.address;
  const postamat = seed.postamat === true;
  const regionPart = city.region !== city.city ? `${city.region}, ` : '';
  return {
    code: `${city.prefix}${seed.n}`,
    name: postamat ? `Постамат, ${city.city}, ${street}` : `${city.city}, ${street}`,
    type: postamat ? 'POSTAMAT' : 'PVZ',
    location: {
      country_code: city.countryCode,
      region: city.region,
      city_code: city.cityCode,
      city: city.city,
      postal_code: seed.postal,
      longitude: seed.lon,
      latitude: seed.lat,
      address: seed.address,
      address_full: `${seed.postal}, ${city.country}, ${regionPart}${city.city}, ${seed.address}`,
    },
    address_comment: seed.comment ?? DEFAULT_COMMENTS[index % DEFAULT_COMMENTS.length]!,
    nearest_metro_station: seed.metro ?? null,
    work_time: schedule.work_time,
    work_time_list,
    phones: [{ number: phone(city, seed) }],
    note: postamat ? 'Код для получения придёт в SMS' : '',
    is_dressing_room: seed.dressing === true,
    take_only: false,
    have_cashless: true,
    allowed_cod: !postamat,
    weight_max: postamat ? 20 : 30,
    ...(postamat ? { dimensions: POSTAMAT_CELLS.map((c) => ({ ...c })) } : {}),
  };
}

let builtPoints: ReadonlyMap<number, readonly CdekDeliveryPoint[]> | null = null;

/** Every seeded point by city code (built once). */
function pointsByCity(): ReadonlyMap<number, readonly CdekDeliveryPoint[]> {
  builtPoints ??= new Map(
    OFFLINE_POINTS.map((city) => [city.cityCode, city.points.map((seed, i) => buildPoint(city, seed, i))]),
  );
  return builtPoints;
}

/** The city's seeded points and lockers, copies (callers may change them). An unknown code has none, as CDEK answers `[]`. */
export function offlineDeliveryPoints(cityCode: number, type: 'PVZ' | 'POSTAMAT' | 'ALL' = 'ALL'): CdekDeliveryPoint[] {
  const points = pointsByCity().get(cityCode) ?? [];
  return points.filter((p) => type === 'ALL' || p.type === type).map((p) => structuredClone(p));
}

/** The seeded point with that code, or null. */
export function findOfflinePoint(code: string): CdekDeliveryPoint | null {
  for (const points of pointsByCity().values()) {
    const point = points.find((p) => p.code === code);
    if (point) return structuredClone(point);
  }
  return null;
}

// ---------------------------------------------------------------------------------------
// Tariffs: roubles by distance zone (0 Moscow … 6 farthest) and weight per started 0.5 kg.
// ---------------------------------------------------------------------------------------

interface TariffRow {
  name: string;
  /** CDEK's delivery_mode: 3 warehouse → door, 4 warehouse → warehouse. */
  mode: number;
  /** The first 0.5 kg, by zone. */
  base: readonly number[];
  /** Each further started 0.5 kg, by zone. */
  step: readonly number[];
}

export const OFFLINE_TARIFFS: Readonly<Record<number, TariffRow>> = {
  [CDEK_TARIFF.toPoint]: {
    name: 'Посылка склад-склад',
    mode: 4,
    base: [250, 320, 380, 430, 490, 560, 640],
    step: [30, 40, 50, 60, 75, 90, 110],
  },
  [CDEK_TARIFF.toDoor]: {
    name: 'Посылка склад-дверь',
    mode: 3,
    base: [390, 480, 560, 630, 710, 800, 910],
    step: [40, 50, 60, 70, 85, 100, 120],
  },
};

/**
 * Days in transit by zone, within delivery.md's promises: Russia 2–9, Belarus and Kazakhstan
 * 3–10, other CIS 3–14; a parcel within one city 1–2.
 */
const PERIODS: Record<'russia' | 'by-kz' | 'cis', readonly (readonly [number, number])[]> = {
  russia: [
    [2, 3],
    [2, 4],
    [3, 5],
    [3, 6],
    [4, 7],
    [5, 8],
    [6, 9],
  ],
  'by-kz': [
    [3, 5],
    [3, 5],
    [3, 6],
    [4, 7],
    [4, 8],
    [5, 10],
    [5, 10],
  ],
  cis: [
    [3, 7],
    [3, 8],
    [4, 9],
    [4, 10],
    [5, 11],
    [5, 12],
    [6, 14],
  ],
};
const PERIOD_CAP = { local: 2, russia: 9, 'by-kz': 10, cis: 14 } as const;

function cdekCity(code: unknown, field: string): ShopCity {
  const city = typeof code === 'number' ? SHOP_CITIES.find((c) => c.cdekCode === code) : undefined;
  if (!city) throw new CdekError(`no tariff for the route: unknown ${field}.code ${String(code)}`, 400);
  return city;
}

/** Total weight in grams of well-formed packages; CdekError otherwise. */
function parcelWeight(packages: unknown): number {
  if (!Array.isArray(packages) || packages.length === 0) throw new CdekError('packages are required', 400);
  let total = 0;
  for (const p of packages as unknown[]) {
    const weight = (p as { weight?: unknown } | null)?.weight;
    if (typeof weight !== 'number' || !Number.isFinite(weight) || weight <= 0)
      throw new CdekError('every package needs a positive weight in grams', 400);
    total += weight;
  }
  if (total > OFFLINE_MAX_WEIGHT_GRAMS) throw new CdekError(`no tariff for a parcel of ${total} g`, 400);
  return total;
}

interface Route {
  zone: number;
  region: keyof typeof PERIOD_CAP;
  weight: number;
}

function route(request: Omit<TariffRequest, 'tariff_code'>): Route {
  const from = cdekCity(request.from_location?.code, 'from_location');
  const to = cdekCity(request.to_location?.code, 'to_location');
  const weight = parcelWeight(request.packages);
  if (from === to) return { zone: 0, region: 'local', weight };
  // The table is drawn from the Moscow warehouse; another origin counts the farther of the two.
  const zone = Math.max(1, from.tariffZone, to.tariffZone);
  const region = to.deliveryRegion === 'by-kz' || to.deliveryRegion === 'cis' ? to.deliveryRegion : 'russia';
  return { zone, region, weight };
}

function price(row: TariffRow, r: Route): TariffListItem & { tariff_code: number } {
  const steps = Math.max(0, Math.ceil(r.weight / 500) - 1);
  const sum = row.base[r.zone]! + steps * row.step[r.zone]!;
  const [min, max] = r.region === 'local' ? [1, 2] : PERIODS[r.region][r.zone]!;
  // To the door takes up to a day longer, still within the promised range.
  const door = row.mode === 3;
  return {
    tariff_code: 0,
    tariff_name: row.name,
    delivery_mode: row.mode,
    delivery_sum: sum,
    period_min: min,
    period_max: door ? Math.min(max + 1, PERIOD_CAP[r.region]) : max,
  };
}

/** `POST /calculator/tariff` by the table: pure. Rejects an unknown city, tariff or malformed parcel with CdekError. */
export function offlineTariff(request: TariffRequest): TariffResult {
  const row = OFFLINE_TARIFFS[request.tariff_code];
  if (!row) throw new CdekError(`tariff ${String(request.tariff_code)} is not available for the route`, 400);
  const item = price(row, route(request));
  return {
    delivery_sum: item.delivery_sum,
    period_min: item.period_min,
    period_max: item.period_max,
    total_sum: item.delivery_sum,
    currency: 'RUB',
  };
}

/** `POST /calculator/tarifflist` by the table: every tariff the stand-in knows for the route. */
export function offlineTariffList(request: Omit<TariffRequest, 'tariff_code'>): TariffListItem[] {
  const r = route(request);
  return Object.entries(OFFLINE_TARIFFS).map(([code, row]) => ({ ...price(row, r), tariff_code: Number(code) }));
}

// ---------------------------------------------------------------------------------------
// Orders
// ---------------------------------------------------------------------------------------

export interface OutboxCdekOrder {
  uuid: string;
  /** ISO 8601 time the order was registered. */
  at: string;
  state: 'ACCEPTED' | 'INVALID';
  errors: string[];
  request: CdekOrderRequest;
}

/** The same order number gives the same uuid, so a retried registration does not make a second parcel. */
export function offlineOrderUuid(number: string): string {
  const hex = createHash('sha256').update(`vitrina-offline-cdek:${number}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A 10-digit track number, stable per uuid. */
export function offlineCdekNumber(uuid: string): string {
  const n = BigInt(`0x${createHash('sha256').update(uuid).digest('hex').slice(0, 15)}`);
  return String(1_000_000_000n + (n % 9_000_000_000n));
}

function orderErrors(request: CdekOrderRequest): string[] {
  const errors: string[] = [];
  const text = (v: unknown) => typeof v === 'string' && v.trim() !== '';
  if (!text(request.number) || request.number.length > 40) errors.push('v2_field_is_empty: number');
  if (request.tariff_code === CDEK_TARIFF.toPoint) {
    if (!text(request.delivery_point) || !findOfflinePoint(request.delivery_point ?? ''))
      errors.push('v2_entity_not_found: delivery_point');
  } else if (request.tariff_code === CDEK_TARIFF.toDoor) {
    if (!text(request.to_location?.address)) errors.push('v2_field_is_empty: to_location.address');
    const code = request.to_location?.code;
    if (code !== undefined && !SHOP_CITIES.some((c) => c.cdekCode === code))
      errors.push('v2_entity_not_found: to_location.code');
  } else {
    errors.push(`v2_tariff_not_available: ${String(request.tariff_code)}`);
  }
  if (!text(request.recipient?.name)) errors.push('v2_field_is_empty: recipient.name');
  if (!Array.isArray(request.recipient?.phones) || !request.recipient.phones.some((p) => text(p?.number)))
    errors.push('v2_field_is_empty: recipient.phones');
  if (!Array.isArray(request.packages) || request.packages.length === 0) errors.push('v2_field_is_empty: packages');
  else if (request.packages.some((p) => !(typeof p?.weight === 'number' && p.weight > 0)))
    errors.push('v2_field_is_invalid: packages.weight');
  return errors;
}

function isOutboxOrder(value: unknown): value is OutboxCdekOrder {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.uuid === 'string' &&
    typeof v.at === 'string' &&
    (v.state === 'ACCEPTED' || v.state === 'INVALID') &&
    Array.isArray(v.errors)
  );
}

/** Every whole order line in the outbox, oldest first; a missing file is none, a torn line is skipped. */
export async function readCdekOutbox(outboxDir: string): Promise<OutboxCdekOrder[]> {
  let content: string;
  try {
    content = await fs.readFile(path.join(path.resolve(outboxDir), CDEK_OUTBOX_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const orders: OutboxCdekOrder[] = [];
  for (const line of content.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const parsed: unknown = JSON.parse(line);
      if (isOutboxOrder(parsed)) orders.push(parsed);
    } catch {
      // A line torn by a crash: skipped.
    }
  }
  return orders;
}

export interface OfflineCdekOptions {
  /** Where cdek.jsonl goes (DATA_DIR/outbox); without it orders live in memory only. */
  outboxDir?: string;
  /** City codes whose tariff calculation fails as a CDEK outage would (502), to exercise failure paths. */
  failCities?: Iterable<number>;
  /** City codes whose pickup-point list fails the same way. */
  failPointCities?: Iterable<number>;
  log?: { info(obj: object, msg: string): void };
}

export function createOfflineCdek(options: OfflineCdekOptions = {}): CdekClient {
  const outboxDir = options.outboxDir ? path.resolve(options.outboxDir) : null;
  const failCities = new Set(options.failCities ?? []);
  const failPointCities = new Set(options.failPointCities ?? []);
  const orders = new Map<string, OutboxCdekOrder>();
  const outage = (what: string, code: number) =>
    new CdekError(`CDEK ${what} unavailable for city ${code} (simulated)`, 502);

  async function known(uuid: string): Promise<OutboxCdekOrder | null> {
    const hit = orders.get(uuid);
    if (hit) return hit;
    // Orders registered before a restart are still answered.
    if (!outboxDir) return null;
    const found = (await readCdekOutbox(outboxDir)).find((o) => o.uuid === uuid) ?? null;
    if (found) orders.set(uuid, found);
    return found;
  }

  return {
    kind: 'offline',
    async deliveryPoints({ city_code, type }) {
      if (failPointCities.has(city_code)) throw outage('delivery points', city_code);
      return offlineDeliveryPoints(city_code, type ?? 'ALL');
    },
    async calculateTariff(request) {
      if (failCities.has(request.to_location?.code)) throw outage('calculator', request.to_location.code);
      return offlineTariff(request);
    },
    async tariffList(request) {
      if (failCities.has(request.to_location?.code)) throw outage('calculator', request.to_location.code);
      return offlineTariffList(request);
    },
    async createOrder(request) {
      const uuid = offlineOrderUuid(String(request.number ?? ''));
      const existing = await known(uuid);
      if (existing) return { uuid, state: existing.state, cdek_number: null, errors: existing.errors };
      const errors = orderErrors(request);
      const record: OutboxCdekOrder = {
        uuid,
        at: new Date().toISOString(),
        state: errors.length > 0 ? 'INVALID' : 'ACCEPTED',
        errors,
        request,
      };
      orders.set(uuid, record);
      if (outboxDir) {
        await fs.mkdir(outboxDir, { recursive: true });
        // One append of the whole line (O_APPEND) keeps lines whole.
        await fs.appendFile(path.join(outboxDir, CDEK_OUTBOX_FILE), `${JSON.stringify(record)}\n`, 'utf8');
      }
      options.log?.info(
        { cdek: { uuid, number: request.number, state: record.state } },
        'CDEK (offline) order registered',
      );
      return { uuid, state: record.state, cdek_number: null, errors };
    },
    async getOrder(uuid): Promise<CdekOrderState> {
      const order = await known(uuid);
      if (!order) throw new CdekError(`order ${uuid} not found`, 404);
      if (order.state === 'INVALID') return { uuid, state: 'INVALID', cdek_number: null, errors: order.errors };
      return { uuid, state: 'SUCCESSFUL', cdek_number: offlineCdekNumber(uuid), errors: [] };
    },
  };
}
