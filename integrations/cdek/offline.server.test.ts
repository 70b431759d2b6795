import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SHOP_CITIES } from '~/core/delivery-cities';
import { CDEK_TARIFF, CdekError, type CdekOrderRequest, type TariffRequest } from './cdek';
import {
  CDEK_OUTBOX_FILE,
  createOfflineCdek,
  findOfflinePoint,
  offlineCdekNumber,
  offlineDeliveryPoints,
  offlineOrderUuid,
  offlineTariff,
  offlineTariffList,
  readCdekOutbox,
} from './offline.server';

const MOSCOW = 44;
const SPB = 137;
const BOX = { length: 40, width: 30, height: 10 };
const cdekCities = SHOP_CITIES.filter((c) => c.cdekCode !== null);

function tariff(to: number, weight: number, tariff_code: number = CDEK_TARIFF.toPoint, from = MOSCOW): TariffRequest {
  return { tariff_code, from_location: { code: from }, to_location: { code: to }, packages: [{ weight, ...BOX }] };
}

function order(overrides: Partial<CdekOrderRequest> = {}): CdekOrderRequest {
  return {
    type: 1,
    number: 'V-100042',
    tariff_code: CDEK_TARIFF.toPoint,
    delivery_point: 'MSK67',
    from_location: { code: MOSCOW },
    recipient: { name: 'Анна Смирнова', email: 'anna@example.ru', phones: [{ number: '+79161234567' }] },
    packages: [
      {
        number: '1',
        weight: 1200,
        ...BOX,
        items: [{ name: 'Платье', ware_key: '1001', payment: { value: 0 }, cost: 12900, weight: 600, amount: 2 }],
      },
    ],
    ...overrides,
  };
}

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-cdek-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('offline pickup points', () => {
  it('seeds every shop city CDEK serves: Moscow 10+, Saint Petersburg 6+, others 3+', () => {
    for (const city of cdekCities) {
      const points = offlineDeliveryPoints(city.cdekCode!);
      const least = city.cdekCode === MOSCOW ? 10 : city.cdekCode === SPB ? 6 : 3;
      expect(points.length, city.name).toBeGreaterThanOrEqual(least);
      for (const p of points) {
        expect(p.location.city_code).toBe(city.cdekCode);
        expect(p.location.city).toBe(city.name);
        expect(p.location.country_code).toBe(city.countryCode);
        // Within about 15 km of the centre.
        expect(Math.abs(p.location.latitude - city.latitude), p.code).toBeLessThan(0.15);
        expect(Math.abs(p.location.longitude - city.longitude), p.code).toBeLessThan(0.2);
      }
    }
  });

  it('speaks CDEK field names and shapes', () => {
    const all = cdekCities.flatMap((c) => offlineDeliveryPoints(c.cdekCode!));
    const codes = new Set(all.map((p) => p.code));
    expect(codes.size).toBe(all.length);
    for (const p of all) {
      expect(p.code).toMatch(/^[A-Z]{3,5}\d+$/);
      expect(p.name).not.toBe('');
      expect(['PVZ', 'POSTAMAT']).toContain(p.type);
      expect(p.location.postal_code).toMatch(/^\d{4,6}$/);
      expect(p.location.address_full).toContain(p.location.address);
      expect(p.location.address_full).toContain(p.location.city);
      expect(p.work_time).toMatch(/^(Пн|Вт|Ср|Чт|Пт|Сб|Вс)/);
      expect(p.work_time_list.length).toBeGreaterThanOrEqual(6);
      for (const w of p.work_time_list) {
        expect(w.day).toBeGreaterThanOrEqual(1);
        expect(w.day).toBeLessThanOrEqual(7);
        expect(w.time).toMatch(/^\d\d:\d\d\/\d\d:\d\d$/);
      }
      expect(new Set(p.work_time_list.map((w) => w.day)).size).toBe(p.work_time_list.length);
      expect(p.phones[0]?.number).toMatch(/^\+\d{11,12}$/);
      expect(p.address_comment).not.toBe('');
      expect(p.weight_max).toBeGreaterThan(0);
      if (p.type === 'POSTAMAT') expect(p.dimensions?.length).toBeGreaterThan(0);
      else expect(p.dimensions).toBeUndefined();
    }
    expect(all.filter((p) => p.type === 'POSTAMAT').length).toBeGreaterThanOrEqual(3);
    expect(all.filter((p) => p.is_dressing_room).length).toBeGreaterThanOrEqual(5);
  });

  it('matches work_time to work_time_list', () => {
    const [point] = offlineDeliveryPoints(MOSCOW);
    expect(point?.work_time).toBe('Пн-Пт 10:00-21:00, Сб-Вс 10:00-18:00');
    expect(point?.work_time_list).toEqual([
      { day: 1, time: '10:00/21:00' },
      { day: 2, time: '10:00/21:00' },
      { day: 3, time: '10:00/21:00' },
      { day: 4, time: '10:00/21:00' },
      { day: 5, time: '10:00/21:00' },
      { day: 6, time: '10:00/18:00' },
      { day: 7, time: '10:00/18:00' },
    ]);
    expect(point?.nearest_metro_station).toBe('Китай-город');
  });

  it('filters by type, answers [] for an unknown city, and hands out copies', async () => {
    const cdek = createOfflineCdek();
    const lockers = await cdek.deliveryPoints({ city_code: MOSCOW, type: 'POSTAMAT' });
    expect(lockers.length).toBeGreaterThan(0);
    expect(lockers.every((p) => p.type === 'POSTAMAT')).toBe(true);
    expect((await cdek.deliveryPoints({ city_code: MOSCOW, type: 'PVZ' })).every((p) => p.type === 'PVZ')).toBe(true);
    expect(await cdek.deliveryPoints({ city_code: 999_999 })).toEqual([]);
    lockers[0]!.name = 'changed';
    expect((await cdek.deliveryPoints({ city_code: MOSCOW, type: 'POSTAMAT' }))[0]?.name).not.toBe('changed');
    expect(findOfflinePoint('SPB12')?.location.city).toBe('Санкт-Петербург');
    expect(findOfflinePoint('NOPE1')).toBeNull();
  });
});

describe('offline tariffs', () => {
  it('is deterministic and prices by started half kilogram', () => {
    const a = offlineTariff(tariff(SPB, 1200));
    expect(offlineTariff(tariff(SPB, 1200))).toEqual(a);
    expect(a).toEqual({ delivery_sum: 400, period_min: 2, period_max: 4, total_sum: 400, currency: 'RUB' });
    expect(offlineTariff(tariff(SPB, 1001)).delivery_sum).toBe(400);
    expect(offlineTariff(tariff(SPB, 1000)).delivery_sum).toBe(360);
    expect(offlineTariff(tariff(SPB, 1)).delivery_sum).toBe(320);
    expect(Number.isInteger(a.delivery_sum)).toBe(true);
  });

  it('sums the packages', () => {
    const two: TariffRequest = {
      ...tariff(SPB, 0),
      packages: [
        { weight: 600, ...BOX },
        { weight: 600, ...BOX },
      ],
    };
    expect(offlineTariff(two).delivery_sum).toBe(offlineTariff(tariff(SPB, 1200)).delivery_sum);
  });

  it('never falls as weight or zone grows; the door costs more than a point', () => {
    for (const city of cdekCities) {
      let previous = 0;
      for (let weight = 100; weight <= 30_000; weight += 250) {
        const point = offlineTariff(tariff(city.cdekCode!, weight)).delivery_sum;
        const door = offlineTariff(tariff(city.cdekCode!, weight, CDEK_TARIFF.toDoor)).delivery_sum;
        expect(point).toBeGreaterThanOrEqual(previous);
        expect(door).toBeGreaterThan(point);
        previous = point;
      }
    }
    const byZone = [...cdekCities].sort((x, y) => x.tariffZone - y.tariffZone);
    for (let i = 1; i < byZone.length; i++) {
      for (const weight of [300, 2500, 12_000]) {
        const lower = offlineTariff(tariff(byZone[i - 1]!.cdekCode!, weight)).delivery_sum;
        const higher = offlineTariff(tariff(byZone[i]!.cdekCode!, weight)).delivery_sum;
        expect(higher).toBeGreaterThanOrEqual(lower);
      }
    }
  });

  it('promises the periods of delivery.md', () => {
    const limits = { moscow: [1, 2], russia: [2, 9], 'by-kz': [3, 10], cis: [3, 14] } as const;
    for (const city of cdekCities) {
      if (city.deliveryRegion === 'world') continue;
      const [low, high] = limits[city.deliveryRegion];
      for (const code of [CDEK_TARIFF.toPoint, CDEK_TARIFF.toDoor]) {
        const r = offlineTariff(tariff(city.cdekCode!, 1000, code));
        expect(r.period_min, city.name).toBeGreaterThanOrEqual(low);
        expect(r.period_max, city.name).toBeLessThanOrEqual(high);
        expect(r.period_min).toBeLessThanOrEqual(r.period_max);
      }
    }
    expect(offlineTariff(tariff(MOSCOW, 1000))).toMatchObject({ period_min: 1, period_max: 2 });
  });

  it('lists both parcel tariffs with CDEK names and modes', () => {
    const list = offlineTariffList({
      from_location: { code: MOSCOW },
      to_location: { code: 424 },
      packages: [{ weight: 800, ...BOX }],
    });
    expect(list.map((t) => [t.tariff_code, t.tariff_name, t.delivery_mode])).toEqual([
      [136, 'Посылка склад-склад', 4],
      [137, 'Посылка склад-дверь', 3],
    ]);
    expect(list[0]?.delivery_sum).toBe(offlineTariff(tariff(424, 800)).delivery_sum);
  });

  it('refuses unknown cities, tariffs and malformed parcels with CdekError', () => {
    expect(() => offlineTariff(tariff(999_999, 1000))).toThrow(CdekError);
    expect(() => offlineTariff(tariff(SPB, 1000, CDEK_TARIFF.toPoint, 999_999))).toThrow(/from_location/);
    expect(() => offlineTariff(tariff(SPB, 1000, 139))).toThrow(/tariff 139/);
    expect(() => offlineTariff(tariff(SPB, 0))).toThrow(/positive weight/);
    expect(() => offlineTariff(tariff(SPB, 200_000))).toThrow(CdekError);
    expect(() => offlineTariff({ ...tariff(SPB, 1000), packages: [] })).toThrow(/packages/);
  });

  it('fails the calculator of the cities it is told to, as an outage', async () => {
    const cdek = createOfflineCdek({ failCities: [SPB], failPointCities: [424] });
    const error = await cdek.calculateTariff(tariff(SPB, 1000)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CdekError);
    expect((error as CdekError).status).toBe(502);
    await expect(cdek.tariffList(tariff(SPB, 1000))).rejects.toThrow(CdekError);
    await expect(cdek.calculateTariff(tariff(424, 1000))).resolves.toMatchObject({ delivery_sum: 430 });
    await expect(cdek.deliveryPoints({ city_code: 424 })).rejects.toThrow(CdekError);
    expect((await cdek.deliveryPoints({ city_code: SPB })).length).toBeGreaterThan(0);
  });
});

describe('offline orders', () => {
  it('accepts, records to the outbox, and later answers SUCCESSFUL with a stable track number', async () => {
    const dir = tempDir();
    const cdek = createOfflineCdek({ outboxDir: dir });
    const created = await cdek.createOrder(order());
    expect(created).toEqual({ uuid: offlineOrderUuid('V-100042'), state: 'ACCEPTED', cdek_number: null, errors: [] });
    expect(created.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);

    const outbox = await readCdekOutbox(dir);
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatchObject({
      uuid: created.uuid,
      state: 'ACCEPTED',
      request: { number: 'V-100042', delivery_point: 'MSK67' },
    });
    expect(fs.readFileSync(path.join(dir, CDEK_OUTBOX_FILE), 'utf8').endsWith('\n')).toBe(true);

    const read = await cdek.getOrder(created.uuid);
    expect(read.state).toBe('SUCCESSFUL');
    expect(read.cdek_number).toMatch(/^\d{10}$/);
    expect((await cdek.getOrder(created.uuid)).cdek_number).toBe(read.cdek_number);
    expect(offlineCdekNumber(created.uuid)).toBe(read.cdek_number);
  });

  it('registers a retried order number once', async () => {
    const dir = tempDir();
    const cdek = createOfflineCdek({ outboxDir: dir });
    const first = await cdek.createOrder(order());
    const again = await cdek.createOrder(order());
    expect(again.uuid).toBe(first.uuid);
    expect(await readCdekOutbox(dir)).toHaveLength(1);
  });

  it('answers orders registered before a restart from the outbox', async () => {
    const dir = tempDir();
    const { uuid } = await createOfflineCdek({ outboxDir: dir }).createOrder(order({ number: 'V-7' }));
    const restarted = createOfflineCdek({ outboxDir: dir });
    expect((await restarted.getOrder(uuid)).state).toBe('SUCCESSFUL');
    await expect(createOfflineCdek().getOrder(uuid)).rejects.toMatchObject({ name: 'CdekError', status: 404 });
  });

  it('marks invalid orders INVALID with CDEK-style errors', async () => {
    const cdek = createOfflineCdek();
    const noPoint = await cdek.createOrder(order({ number: 'V-1', delivery_point: 'MSK999999' }));
    expect(noPoint.state).toBe('INVALID');
    expect(noPoint.errors).toEqual(['v2_entity_not_found: delivery_point']);
    expect((await cdek.getOrder(noPoint.uuid)).state).toBe('INVALID');

    const door = await cdek.createOrder(
      order({
        number: 'V-2',
        tariff_code: CDEK_TARIFF.toDoor,
        delivery_point: undefined,
        to_location: { code: SPB, address: 'Невский пр-т, 1, кв. 5' },
      }),
    );
    expect(door.state).toBe('ACCEPTED');
    const noAddress = await cdek.createOrder(
      order({ number: 'V-3', tariff_code: CDEK_TARIFF.toDoor, delivery_point: undefined }),
    );
    expect(noAddress.errors).toContain('v2_field_is_empty: to_location.address');
    const noPhone = await cdek.createOrder(order({ number: 'V-4', recipient: { name: ' ', phones: [] } }));
    expect(noPhone.errors).toEqual(['v2_field_is_empty: recipient.name', 'v2_field_is_empty: recipient.phones']);
  });

  it('does not know uuids it never issued', async () => {
    await expect(createOfflineCdek().getOrder('00000000-0000-4000-8000-000000000000')).rejects.toThrow(CdekError);
  });
});
