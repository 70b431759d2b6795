import fs from 'node:fs';
import { createRequire } from 'node:module';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '~/shared/contract';
import { SHOP_CITIES } from '~/core/delivery-cities';
import { OSM_DEV_TILES, type MapTiles } from '~/core/map-tiles';
import {
  cdekRoutes,
  cityFromState,
  mapDocument,
  CDEK_BAD_CITY,
  CDEK_NO_CITY,
  CDEK_NOT_SERVED,
  CDEK_UNAVAILABLE,
} from '~/api/cdek/routes.server';
import { createOfflineCdek, offlineDeliveryPoints } from '~/integrations/cdek/offline.server';
import type { CdekDeliveryPoint } from '~/integrations/cdek/cdek';
import { expectContract, fetchJson, getJson, postForm } from '~/tests/support/api';
import { setUpTestShop } from '~/tests/support/server';

// SPEC §7 `/api/cdek/` over HTTP, answered by the offline CDEK stand-in (CDEK_PROVIDER unset):
// the map widget's proxy (offices, calculate), the pickup-point map page (FRAME_PVZ) and the
// Leaflet files it loads, on PGlite or (TEST_DATABASE_URL) PostgreSQL.

const shop = setUpTestShop({ products: 20 });
const BASE = '/backend/api/cdek/';

const Point = z.object({
  code: z.string(),
  name: z.string(),
  type: z.enum(['PVZ', 'POSTAMAT']),
  location: z.object({
    country_code: z.string(),
    region: z.string(),
    city_code: z.number(),
    city: z.string(),
    postal_code: z.string(),
    longitude: z.number(),
    latitude: z.number(),
    address: z.string(),
    address_full: z.string(),
  }),
  address_comment: z.string(),
  nearest_metro_station: z.string().nullable(),
  work_time: z.string(),
  work_time_list: z.array(z.object({ day: z.number(), time: z.string() })),
  phones: z.array(z.object({ number: z.string() })),
  note: z.string(),
  is_dressing_room: z.boolean(),
  take_only: z.boolean(),
  have_cashless: z.boolean(),
  allowed_cod: z.boolean(),
  weight_max: z.number(),
  dimensions: z.array(z.object({ width: z.number(), height: z.number(), depth: z.number() })).optional(),
});
const Points = z.array(Point);
const TariffList = z.object({
  tariff_codes: z.array(
    z.object({
      tariff_code: z.number(),
      tariff_name: z.string(),
      delivery_mode: z.number(),
      delivery_sum: z.number(),
      period_min: z.number(),
      period_max: z.number(),
    }),
  ),
});
const MapAnswer = z.object({ html: z.string() });

const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

async function error(path: string, init: RequestInit | undefined, status = 400): Promise<string> {
  return (await getJson(shop.baseUrl, path, ApiError, { status, init })).error;
}

describe('GET /api/cdek/?action=offices (the widget proxy)', () => {
  it("passes the city's pickup points through in CDEK's shape", async () => {
    const { response, body } = await fetchJson(shop.baseUrl, `${BASE}?action=offices&city_code=44`, Points);
    expect(body.length).toBeGreaterThanOrEqual(10);
    expect(body.every((p) => p.location.city_code === 44 && p.location.city === 'Москва')).toBe(true);
    expect(body.some((p) => p.type === 'POSTAMAT')).toBe(true);
    expect(response.headers.get('cache-control')).toMatch(/max-age/);
    // The default action is offices, as the widget's service.php treats a bare filter query.
    expect((await getJson(shop.baseUrl, `${BASE}?city_code=137`, Points)).length).toBeGreaterThanOrEqual(6);
  });

  it('filters by type and fitting room', async () => {
    const lockers = await getJson(shop.baseUrl, `${BASE}?action=offices&city_code=44&type=POSTAMAT`, Points);
    expect(lockers.length).toBeGreaterThan(0);
    expect(lockers.every((p) => p.type === 'POSTAMAT')).toBe(true);
    const fitting = await getJson(shop.baseUrl, `${BASE}?action=offices&city_code=44&is_dressing_room=true`, Points);
    expect(fitting.length).toBeGreaterThan(0);
    expect(fitting.every((p) => p.is_dressing_room)).toBe(true);
  });

  it('refuses a missing, malformed or unknown city and unknown actions in Russian', async () => {
    expect(await error(`${BASE}?action=offices`, undefined)).toBe(CDEK_NO_CITY);
    expect(await error(`${BASE}?action=offices&city_code=99999`, undefined)).toBe(CDEK_BAD_CITY);
    expect(await error(`${BASE}?action=offices&city_code=abc`, undefined)).toMatch(/^Неверный запрос: «city_code»/);
    expect(await error(`${BASE}?action=offices&city_code=44&type=SHOP`, undefined)).toMatch(/^Неверный запрос: «type»/);
    expect(await error(`${BASE}?action=drop&city_code=44`, undefined)).toBe('Неизвестное действие');
  });
});

describe('POST /api/cdek/ {"action":"calculate"} (the widget proxy)', () => {
  const calculate = {
    action: 'calculate',
    from_location: { code: 270 },
    to_location: { code: 137 },
    packages: [{ weight: 1200, length: 40, width: 30, height: 10 }],
  };

  it('answers the tariff list from the shop warehouse, whatever origin the page names', async () => {
    const { response, body } = await fetchJson(shop.baseUrl, BASE, TariffList, { init: json(calculate) });
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(body.tariff_codes.map((t) => t.tariff_code)).toEqual([136, 137]);
    const fromMoscow = await getJson(shop.baseUrl, BASE, TariffList, {
      init: json({ ...calculate, from_location: { code: 44 } }),
    });
    expect(fromMoscow).toEqual(body);
    const [point, door] = body.tariff_codes;
    expect(point?.delivery_sum).toBeLessThan(door?.delivery_sum ?? 0);
    expect(point?.period_min).toBeGreaterThanOrEqual(2);
  });

  it('takes a form-encoded body and sizes a package without dimensions as the standard box', async () => {
    const body = await getJson(shop.baseUrl, BASE, TariffList, {
      init: postForm({ action: 'calculate', 'to_location[code]': '137', 'packages[0][weight]': '1200' }),
    });
    const full = await getJson(shop.baseUrl, BASE, TariffList, { init: json(calculate) });
    expect(body).toEqual(full);
  });

  it('refuses bad parcels, unknown cities and broken JSON with 400 in Russian', async () => {
    expect(await error(BASE, json({ ...calculate, packages: [] }))).toMatch(/^Неверный запрос: «packages»/);
    expect(await error(BASE, json({ ...calculate, packages: [{ weight: -5 }] }))).toMatch(/^Неверный запрос/);
    expect(await error(BASE, json({ ...calculate, packages: [{ weight: 500_000 }] }))).toMatch(/^Неверный запрос/);
    expect(await error(BASE, json({ ...calculate, to_location: { code: 99999 } }))).toBe(CDEK_BAD_CITY);
    expect(await error(BASE, json({ ...calculate, to_location: {} }))).toMatch(/^Неверный запрос: «to_location.code»/);
    expect(
      await error(BASE, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"action":"calc' }),
    ).toBe('Неверный запрос');
    expect(await error(BASE, json({ action: 'rm -rf' }))).toBe('Неизвестное действие');
    expect(await error(BASE, json([1, 2, 3]))).toBe(CDEK_NO_CITY);
  });

  it('answers a huge body with a Russian error, never 500', async () => {
    const huge = { ...calculate, junk: 'я'.repeat(200_000) };
    expect(await error(BASE, json(huge), 413)).toBe('Слишком большой запрос');
    expect(await error(BASE, postForm({ piniaState: 'x'.repeat(100_000) }), 413)).toBe('Слишком большой запрос');
  });
});

describe('POST /api/cdek/ piniaState (the pickup-point map, FRAME_PVZ)', () => {
  async function mapFor(fields: Record<string, string>): Promise<string> {
    const { response, body } = await fetchJson(shop.baseUrl, BASE, MapAnswer, { init: postForm(fields) });
    expect(response.headers.get('cache-control')).toBe('no-store');
    return body.html;
  }

  it("renders the city's points as a page with a Leaflet map served from here", async () => {
    const html = await mapFor({ piniaState: JSON.stringify({ city: 'Санкт-Петербург', cart: { items: [1, 2] } }) });
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<base href="/backend/api/cdek/">');
    expect(html).toContain('<link rel="stylesheet" href="leaflet.css">');
    expect(html).toContain('<script src="leaflet.js"></script>');
    expect(html).toContain('tile.openstreetmap.org');
    expect(html).toContain('Невский пр-т, 88');
    expect(html).toContain('data-code="SPB12"');
    expect(html).toContain('Пункты выдачи СДЭК — Санкт-Петербург');
    expect(html).not.toContain('ул. Маросейка');
    // The list is plain HTML: it works when scripts or tiles do not load.
    expect((html.match(/class="pvz-item"/g) ?? []).length).toBeGreaterThanOrEqual(6);
  });

  it('finds the city in the shapes a storefront state takes', async () => {
    expect(await mapFor({ piniaState: JSON.stringify({ cityCode: 424 }) })).toContain('ул. Баумана');
    expect(
      await mapFor({
        piniaState: JSON.stringify({ checkout: { city: { ID: '250', NAME: 'Екатеринбург', CDEK_CODE: 250 } } }),
      }),
    ).toContain('ул. Малышева');
    expect(await mapFor({ piniaState: JSON.stringify({ order: { city: 'г Казань' } }) })).toContain('ул. Баумана');
    expect(await mapFor({ city_code: '44' })).toContain('ул. Маросейка');
    // JSON works as well as a form.
    const viaJson = await getJson(shop.baseUrl, BASE, MapAnswer, {
      init: json({ piniaState: JSON.stringify({ cityCode: '137' }) }),
    });
    expect(viaJson.html).toContain('Невский пр-т, 88');
  });

  it('refuses junk, unknown and unserved cities with 400 in Russian', async () => {
    expect(await error(BASE, postForm({ piniaState: '{{{not json' }))).toBe(CDEK_NO_CITY);
    expect(await error(BASE, postForm({ piniaState: JSON.stringify({ city: 'Атлантида' }) }))).toBe(CDEK_NO_CITY);
    expect(await error(BASE, postForm({ piniaState: 'null' }))).toBe(CDEK_NO_CITY);
    expect(await error(BASE, postForm({}))).toBe(CDEK_NO_CITY);
    expect(await error(BASE, postForm({ city_code: '99999' }))).toBe(CDEK_BAD_CITY);
    expect(await error(BASE, postForm({ city_code: '44; drop' }))).toMatch(/^Неверный запрос: «city_code»/);
    expect(await error(BASE, postForm({ piniaState: JSON.stringify({ city: 'Другая страна' }) }))).toBe(
      CDEK_NOT_SERVED,
    );
  });

  it('serves the same page as text/html for an iframe src', async () => {
    const response = await fetch(`${shop.baseUrl}${BASE}?action=map&city_code=44`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    const page = await response.text();
    expect(page).toBe(await mapFor({ city_code: '44' }));
    expect(await error(`${BASE}?action=map&city_code=5`, undefined)).toBe(CDEK_BAD_CITY);
  });

  it('serves Leaflet itself, cached', async () => {
    const require = createRequire(import.meta.url);
    for (const [name, type] of [
      ['leaflet.js', 'text/javascript; charset=utf-8'],
      ['leaflet.css', 'text/css; charset=utf-8'],
    ] as const) {
      const response = await fetch(`${shop.baseUrl}${BASE}${name}`);
      expect(response.status, name).toBe(200);
      expect(response.headers.get('content-type')).toBe(type);
      expect(response.headers.get('cache-control')).toBe('public, max-age=86400');
      expect(await response.text()).toBe(fs.readFileSync(require.resolve(`leaflet/dist/${name}`), 'utf8'));
    }
  });
});

describe('the map page', () => {
  it('escapes every text it shows', () => {
    const [point] = offlineDeliveryPoints(44);
    const evil: CdekDeliveryPoint = {
      ...point!,
      code: 'X"1',
      name: '<img src=x onerror=alert(1)>',
      address_comment: '</script><script>alert(2)</script>',
      nearest_metro_station: 'Тверская & Пушкинская',
      location: { ...point!.location, address: '<b>ул. Злая</b>' },
    };
    const html = mapDocument(SHOP_CITIES[0]!, [evil], '/backend/api/cdek/', OSM_DEV_TILES);
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<b>ул. Злая</b>');
    expect(html).toContain('&lt;b&gt;ул. Злая&lt;/b&gt;');
    expect(html).toContain('Тверская &amp; Пушкинская');
    expect(html).toContain('data-code="X&quot;1"');
    // Inside the JSON data block no '<' survives, so no tag can close it.
    const data = /<script type="application\/json" id="pvz-data">(.*?)<\/script>/s.exec(html)?.[1] ?? '';
    expect(data).not.toContain('<');
    expect(JSON.parse(data)[0].name).toBe('<img src=x onerror=alert(1)>');
    expect((html.match(/<\/script>/g) ?? []).length).toBe(4);
  });

  it('reads the city out of junk without throwing', () => {
    for (const junk of [
      '',
      '[]',
      '"Москва"',
      '{"city":{"NAME":42}}',
      '{"a":{"b":{"c":{"d":{"city":"Москва"}}}}}',
      'x'.repeat(40_000),
    ]) {
      expect(() => cityFromState(junk)).not.toThrow();
    }
    expect(cityFromState('{"city":"Москва"}')?.cdekCode).toBe(44);
    expect(cityFromState('{"a":{"b":{"c":{"d":{"city":"Москва"}}}}}')).toBeNull();
  });
});

describe('the map page’s tiles (issue #26: PUBLIC_MAP_TILE_*)', () => {
  async function mapPage(mapTiles: MapTiles | null): Promise<string> {
    const app = Fastify();
    await app.register(cdekRoutes, { cdek: createOfflineCdek(), fromCityCode: 44, mapTiles });
    try {
      const res = await app.inject({ method: 'GET', url: '/api/cdek/?action=map&city_code=44' });
      expect(res.statusCode).toBe(200);
      return res.body;
    } finally {
      await app.close();
    }
  }

  it('come from the configured provider, with its credit and projection', async () => {
    const tiles: MapTiles = {
      url: 'https://tile{s}.maps.2gis.com/tiles?x={x}&y={y}&z={z}',
      attribution: '&copy; <a href="https://2gis.ru">2ГИС</a>',
      subdomains: '0123',
      maxZoom: 18,
      crs: 'EPSG3857',
    };
    const html = await mapPage(tiles);
    const data = JSON.parse(
      /<script type="application\/json" id="pvz-tiles">(.*?)<\/script>/s.exec(html)?.[1] ?? 'null',
    ) as MapTiles;
    expect(data).toEqual(tiles);
    expect(html).not.toContain('openstreetmap.org');
    expect(html).toContain('<script src="leaflet.js"></script>');
  });

  it('without a source (production, nothing configured) the page is the list alone: no Leaflet, no tiles', async () => {
    const html = await mapPage(null);
    expect(html).not.toContain('leaflet');
    expect(html).not.toContain('openstreetmap.org');
    expect(html).toContain('<div id="pvz-map" class="pvz-map" role="presentation" hidden></div>');
    expect((html.match(/class="pvz-item"/g) ?? []).length).toBeGreaterThan(0);
  });
});

describe('when CDEK fails', () => {
  it('answers 502 in Russian and logs it', async () => {
    const lines: string[] = [];
    const app = Fastify({ logger: { level: 'warn', stream: { write: (line: string) => lines.push(line) } } });
    await app.register(cdekRoutes, {
      cdek: createOfflineCdek({ failCities: [137], failPointCities: [137] }),
      fromCityCode: 44,
      mapTiles: null,
    });
    try {
      for (const request of [
        { method: 'GET' as const, url: '/api/cdek/?action=offices&city_code=137' },
        { method: 'GET' as const, url: '/api/cdek/?action=map&city_code=137' },
        { method: 'POST' as const, url: '/api/cdek/', payload: { city_code: '137' } },
        {
          method: 'POST' as const,
          url: '/api/cdek/',
          payload: { action: 'calculate', to_location: { code: 137 }, packages: [{ weight: 900 }] },
        },
      ]) {
        const response = await app.inject(request);
        expect(response.statusCode, request.url).toBe(502);
        expect(expectContract(ApiError, response.json()).error).toBe(CDEK_UNAVAILABLE);
      }
      expect(lines.filter((l) => l.includes('CDEK') && l.includes('failed'))).toHaveLength(4);
      // Other cities still work.
      expect((await app.inject({ method: 'GET', url: '/api/cdek/?action=offices&city_code=44' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});
