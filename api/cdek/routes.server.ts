import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { findShopCity, SHOP_CITIES, type ShopCity } from '~/core/delivery-cities';
import { CdekError, type CdekClient, type CdekDeliveryPoint } from '~/integrations/cdek/cdek';
import { ApiError } from '~/shared/contract';
import type { MapTiles } from '~/core/map-tiles';
import { lastValue, parseValue, queryString } from '~/api/http.server';
import { defineRoute, type Parse, type RouteResponse } from '~/api/route.server';
import type { Database } from '~/db/client.server';
import { cdekIpCounter, DEFAULT_ANONYMOUS_LIMITS, LIMIT_TEXT, type AnonymousLimits } from '~/core/anonymous-limits';
import { hitRateLimit } from '~/models/rate-limit.server';

// SPEC §7 `POST /api/cdek/`: the pickup-point map (FRAME_PVZ) and the map widget's proxy
// (INTEGRATIONS.md §2, the official widget's service.php contract), so CDEK credentials stay
// on the server:
// - GET  ?action=offices&city_code=&type=      → /deliverypoints passthrough (a bare array);
// - GET  ?action=map&city_code=                → the map page itself (text/html, an iframe src);
// - POST {"action":"calculate", …tarifflist}   → /calculator/tarifflist answer;
// - POST piniaState=<storefront state JSON> or city_code=  → { html } of the map page.
// The page lists the points as plain HTML and draws them on a Leaflet map served from here,
// so it works with no internet (tiles aside) and without the widget's Yandex Maps key.

export const CDEK_BAD_CITY = 'Город не найден: укажите город доставки из списка.';
export const CDEK_NO_CITY = 'Не удалось определить город доставки. Выберите город и попробуйте снова.';
export const CDEK_NOT_SERVED = 'В этот город СДЭК не доставляет: способ и стоимость доставки согласует менеджер.';
export const CDEK_UNKNOWN_ACTION = 'Неизвестное действие';
export const CDEK_UNAVAILABLE =
  'Служба доставки СДЭК сейчас недоступна. Попробуйте позже или выберите другой способ доставки.';
export const CDEK_REFUSED = 'СДЭК не смог рассчитать доставку: проверьте город и параметры посылки.';

/** The storefront state is small; anything bigger is not one. */
const MAX_STATE_LENGTH = 32 * 1024;
/** A parcel box when the widget gives no sizes (the shop's standard box, centimetres). */
const DEFAULT_BOX = { length: 40, width: 30, height: 10 };

const require = createRequire(import.meta.url);
const LEAFLET_FILES = {
  'leaflet.js': { file: 'leaflet/dist/leaflet.js', type: 'text/javascript; charset=utf-8' },
  'leaflet.css': { file: 'leaflet/dist/leaflet.css', type: 'text/css; charset=utf-8' },
} as const;
const leafletCache = new Map<string, Promise<Buffer>>();

function readLeaflet(name: keyof typeof LEAFLET_FILES): Promise<Buffer> {
  let cached = leafletCache.get(name);
  if (!cached) {
    cached = fs.readFile(require.resolve(LEAFLET_FILES[name].file));
    // A failed read is retried on the next request rather than cached.
    cached.catch(() => leafletCache.delete(name));
    leafletCache.set(name, cached);
  }
  return cached;
}

/** The shop city with this CDEK code (an integer in text), or null. */
function cityByCode(code: number | null): ShopCity | null {
  if (code === null || !Number.isInteger(code)) return null;
  return SHOP_CITIES.find((c) => c.cdekCode === code) ?? null;
}

const CITY_KEYS = ['cityCode', 'city_code', 'CDEK_CODE', 'cdekCode', 'city', 'selectedCity', 'currentCity'];
const CITY_OBJECT_KEYS = ['CDEK_CODE', 'cdekCode', 'city_code', 'code', 'ID', 'id', 'NAME', 'name'];

/** A city from one value of the state: a code, a name, or a city object ({CDEK_CODE, NAME, …}). */
function cityFromValue(value: unknown): ShopCity | null {
  if (typeof value === 'number') return cityByCode(value);
  if (typeof value === 'string') return value.length <= 100 ? findShopCity(value) : null;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    for (const key of CITY_OBJECT_KEYS) {
      const v = record[key];
      if (typeof v === 'number' || typeof v === 'string') {
        const city = cityFromValue(v);
        if (city) return city;
      }
    }
  }
  return null;
}

/**
 * The city in the storefront's state: `cityCode` / `city` at the top or in a store below it
 * (Pinia keeps one object per store: `{checkout: {city: …}}`). Junk gives null, never a throw.
 */
export function cityFromState(raw: string): ShopCity | null {
  if (raw.length > MAX_STATE_LENGTH) return null;
  let state: unknown;
  try {
    state = JSON.parse(raw);
  } catch {
    return null;
  }
  let level: unknown[] = [state];
  for (let depth = 0; depth < 3 && level.length > 0; depth++) {
    const next: unknown[] = [];
    for (const node of level) {
      if (typeof node !== 'object' || node === null || Array.isArray(node)) continue;
      const record = node as Record<string, unknown>;
      for (const key of CITY_KEYS) {
        if (!Object.hasOwn(record, key)) continue;
        const city = cityFromValue(record[key]);
        if (city) return city;
      }
      for (const value of Object.values(record).slice(0, 50))
        if (typeof value === 'object' && value !== null) next.push(value);
    }
    level = next;
  }
  return null;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/** JSON safe inside a <script> element (no `</script>`, no `<!--`). */
const scriptJson = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

const MAP_STYLE = `
*{box-sizing:border-box}
html,body{margin:0;padding:0;font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#1b1b1b;background:#fff}
.pvz{display:flex;flex-direction:column;height:100vh}
.pvz-map{flex:0 0 55%;min-height:240px;background:#eef0f2}
.pvz-map[hidden]{display:none}
.pvz-head{padding:8px 12px;font-weight:600;border-bottom:1px solid #e3e3e3}
.pvz-list{list-style:none;margin:0;padding:0;overflow:auto;flex:1 1 auto}
.pvz-item{padding:10px 12px;border-bottom:1px solid #eee;cursor:pointer}
.pvz-item:hover,.pvz-item:focus{background:#f6f7f8;outline:none}
.pvz-item.is-selected{background:#eaf5ee}
.pvz-name{font-weight:600}
.pvz-tags,.pvz-time,.pvz-comment,.pvz-metro{color:#555;font-size:13px}
.pvz-choose{margin-top:6px;padding:6px 14px;border:0;border-radius:4px;background:#1b1b1b;color:#fff;font:inherit;cursor:pointer}
.pvz-choose:focus-visible{outline:2px solid #1a7f37;outline-offset:2px}
@media (min-width:760px){.pvz{flex-direction:row}.pvz-map{flex:1 1 60%;height:100vh}.pvz-side{flex:0 0 40%;display:flex;flex-direction:column;height:100vh}}
`;

// Runs in the frame: marks the choice, tells the parent page (the widget's onChoose shape),
// and draws the map only when Leaflet loaded; the list above works without it.
const MAP_SCRIPT = `
(function () {
  var points = JSON.parse(document.getElementById('pvz-data').textContent);
  var byCode = {};
  points.forEach(function (p) { byCode[p.code] = p; });
  var markers = {};
  var map = null;
  function select(code, notify) {
    var p = byCode[code];
    if (!p) return;
    var items = document.querySelectorAll('.pvz-item');
    for (var i = 0; i < items.length; i++) items[i].classList.toggle('is-selected', items[i].getAttribute('data-code') === code);
    if (map && markers[code]) { map.setView(markers[code].getLatLng(), Math.max(map.getZoom(), 14)); markers[code].openPopup(); }
    if (notify && window.parent && window.parent !== window) {
      window.parent.postMessage({ type: 'cdek:choose', mode: 'office', point: { code: p.code, name: p.name, type: p.type, address: p.address, city_code: p.city_code, city: p.city, work_time: p.work_time, location: [p.longitude, p.latitude] } }, '*');
    }
  }
  document.addEventListener('click', function (e) {
    var button = e.target.closest && e.target.closest('.pvz-choose');
    if (button) { select(button.getAttribute('data-code'), true); return; }
    var item = e.target.closest && e.target.closest('.pvz-item');
    if (item) select(item.getAttribute('data-code'), false);
  });
  var mapEl = document.getElementById('pvz-map');
  var tilesEl = document.getElementById('pvz-tiles');
  if (!window.L || !tilesEl || points.length === 0) { mapEl.hidden = true; return; }
  var tiles = JSON.parse(tilesEl.textContent);
  map = L.map(mapEl, { scrollWheelZoom: false, crs: L.CRS[tiles.crs] });
  L.tileLayer(tiles.url, { maxZoom: tiles.maxZoom, subdomains: tiles.subdomains, attribution: tiles.attribution }).addTo(map);
  var bounds = [];
  points.forEach(function (p) {
    var ll = [p.latitude, p.longitude];
    bounds.push(ll);
    var box = document.createElement('div');
    var title = document.createElement('strong'); title.textContent = p.name; box.appendChild(title);
    var addr = document.createElement('div'); addr.textContent = p.address; box.appendChild(addr);
    var time = document.createElement('div'); time.textContent = p.work_time; box.appendChild(time);
    var button = document.createElement('button'); button.type = 'button'; button.className = 'pvz-choose'; button.setAttribute('data-code', p.code); button.textContent = 'Выбрать'; box.appendChild(button);
    markers[p.code] = L.circleMarker(ll, { radius: 8, weight: 2, color: p.type === 'POSTAMAT' ? '#8a5a00' : '#1a7f37', fillOpacity: 0.8 }).addTo(map).bindPopup(box);
  });
  map.fitBounds(bounds, { padding: [24, 24], maxZoom: 14 });
})();
`;

/**
 * The map page of a city's points: a whole HTML document, every text escaped. Without a tile
 * source (production with no PUBLIC_MAP_TILE_URL) it is the list alone: no Leaflet, no map.
 */
export function mapDocument(
  city: ShopCity,
  points: readonly CdekDeliveryPoint[],
  assetBase: string,
  tiles: MapTiles | null,
): string {
  const items = points
    .map((p) => {
      const tags = [p.type === 'POSTAMAT' ? 'Постамат' : 'Пункт выдачи', p.is_dressing_room ? 'есть примерочная' : null]
        .filter(Boolean)
        .join(' · ');
      const lines = [
        `<div class="pvz-name">${escapeHtml(p.location.address)}</div>`,
        `<div class="pvz-tags">${escapeHtml(tags)}</div>`,
        p.nearest_metro_station ? `<div class="pvz-metro">м. ${escapeHtml(p.nearest_metro_station)}</div>` : '',
        `<div class="pvz-time">${escapeHtml(p.work_time)}</div>`,
        p.address_comment ? `<div class="pvz-comment">${escapeHtml(p.address_comment)}</div>` : '',
        `<button type="button" class="pvz-choose" data-code="${escapeHtml(p.code)}">Выбрать</button>`,
      ];
      return `<li class="pvz-item" tabindex="0" data-code="${escapeHtml(p.code)}">${lines.join('')}</li>`;
    })
    .join('\n');
  const data = points.map((p) => ({
    code: p.code,
    name: p.name,
    type: p.type,
    address: p.location.address,
    city: p.location.city,
    city_code: p.location.city_code,
    work_time: p.work_time,
    latitude: p.location.latitude,
    longitude: p.location.longitude,
  }));
  const title = `Пункты выдачи СДЭК — ${city.name}`;
  const empty = points.length === 0 ? '<li class="pvz-item">В этом городе пока нет пунктов выдачи СДЭК.</li>' : '';
  return `<!doctype html>
<html lang="ru">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<base href="${escapeHtml(assetBase)}">
<title>${escapeHtml(title)}</title>
${tiles ? '<link rel="stylesheet" href="leaflet.css">\n' : ''}<style>${MAP_STYLE}</style>
</head>
<body>
<div class="pvz">
<div id="pvz-map" class="pvz-map" role="presentation"${tiles ? '' : ' hidden'}></div>
<div class="pvz-side">
<div class="pvz-head">${escapeHtml(title)}: ${points.length}</div>
<ul class="pvz-list">
${items}${empty}
</ul>
</div>
</div>
<script type="application/json" id="pvz-data">${scriptJson(data)}</script>
${tiles ? `<script type="application/json" id="pvz-tiles">${scriptJson(tiles)}</script>\n<script src="leaflet.js"></script>\n` : ''}<script>${MAP_SCRIPT}</script>
</body>
</html>
`;
}

const cityCodeParam = () =>
  z.preprocess(
    (v) => {
      const s = lastValue(v);
      return typeof s === 'string' && /^\s*\d{1,9}\s*$/.test(s)
        ? Number(s)
        : typeof s === 'number'
          ? s
          : s === undefined || s === ''
            ? undefined
            : Number.NaN;
    },
    z.number({ error: 'должен быть кодом города СДЭК' }).int().optional(),
  );

const OfficesQuery = z.object({
  action: queryString().describe("'offices' (the default): the points as JSON; 'map': the map page"),
  city_code: cityCodeParam().describe('CDEK city code of one of the shop cities (required)'),
  type: z
    .preprocess(
      (v) => {
        const s = lastValue(v);
        return s === undefined || s === '' ? 'ALL' : s;
      },
      z.enum(['PVZ', 'POSTAMAT', 'ALL']),
    )
    .describe('PVZ, POSTAMAT or ALL (the default)'),
  is_dressing_room: queryString().describe("'true' or '1': only points with a fitting room"),
});

/** A form sends arrays as {0: …, 1: …}; JSON as arrays. */
const listOf = <T extends z.ZodType>(item: T) =>
  z.preprocess(
    (v) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.values(v) : v),
    z.array(item).min(1).max(20),
  );
const count = (max: number) => z.preprocess(lastValue, z.coerce.number().int().min(1).max(max));

const CalculateBody = z.object({
  action: z.preprocess(lastValue, z.literal('calculate')),
  to_location: z.object({ code: count(9_999_999) }),
  packages: listOf(
    z.object({
      weight: count(100_000),
      length: count(300).optional(),
      width: count(300).optional(),
      height: count(300).optional(),
    }),
  ),
});

const MapBody = z.object({
  piniaState: z
    .preprocess(lastValue, z.string().max(MAX_STATE_LENGTH, 'слишком длинное состояние').optional())
    .describe('The storefront state as JSON (its city or cityCode is read)'),
  city_code: cityCodeParam().describe('CDEK city code (before piniaState)'),
});
/** POST's two bodies, told apart by `action` (cdekPostParse): the widget's tariff list, or the map page. */
const PostBody = z.union([CalculateBody, MapBody]);

/**
 * POST's body: not an object is «no city»; action 'calculate' is the tariff list's body, another
 * action is unknown, none is the map's body (each refused as parseValue refuses).
 */
function parsePost(value: unknown, reply: FastifyReply): z.infer<typeof PostBody> | null {
  const body =
    typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  if (!body) {
    badRequest(reply, CDEK_NO_CITY);
    return null;
  }
  const action = lastValue(body.action);
  if (action === 'calculate') return parseValue(CalculateBody, value, reply);
  if (action !== undefined && action !== '') {
    badRequest(reply, CDEK_UNKNOWN_ACTION);
    return null;
  }
  return parseValue(MapBody, value, reply);
}
const cdekPostParse = ((_schema: z.ZodType, value: unknown, reply: FastifyReply) => parsePost(value, reply)) as Parse;

/** What the widget is answered (CDEK's own shapes, the fields the shop reads; CDEK sends more). */
const PointAnswer = z
  .object({
    code: z.string(),
    name: z.string(),
    type: z.enum(['PVZ', 'POSTAMAT']),
    location: z.object({
      city_code: z.number(),
      city: z.string(),
      address: z.string(),
      address_full: z.string(),
      latitude: z.number(),
      longitude: z.number(),
    }),
    work_time: z.string(),
    is_dressing_room: z.boolean(),
  })
  .catchall(z.unknown());
const TariffAnswer = z.object({
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
const MAP_PAGE = z.string().describe('The map page (text/html): the points listed, and on a Leaflet map with tiles');
const CDEK_ANSWERS: Record<number, RouteResponse> = {
  400: { description: 'No or unknown city, unknown action, bad parameters, or CDEK refused them', schema: ApiError },
  429: {
    description: 'Too many calls to CDEK from this IP',
    schema: ApiError,
    headers: { 'Retry-After': 'Seconds: 60' },
  },
  502: { description: 'CDEK failed', schema: ApiError },
};

function badRequest(reply: FastifyReply, error: string): FastifyReply {
  return reply.code(400).send({ error } satisfies ApiError);
}

export interface CdekRouteDeps {
  cdek: CdekClient;
  fromCityCode: number;
  /** Counts the calls that reach CDEK per IP (rate_counters); without it nothing is counted. */
  db?: Database;
  limits?: AnonymousLimits;
  /** The map page's tiles; null: the list alone. */
  mapTiles: MapTiles | null;
}

export async function cdekRoutes(
  app: FastifyInstance,
  { cdek, fromCityCode, db, limits = DEFAULT_ANONYMOUS_LIMITS, mapTiles }: CdekRouteDeps,
): Promise<void> {
  const assetBase = `${app.prefix}/api/cdek/`;

  // Pickup points, maps and tariffs reach CDEK for anyone: a cap per IP (core/anonymous-limits.ts).
  app.addHook('preHandler', async (req, reply) => {
    // Leaflet's files (`/api/cdek/leaflet.js` …) are ours: not counted.
    if (!db || !req.routeOptions.url?.endsWith('/api/cdek/')) return;
    if (await hitRateLimit({ db, ...cdekIpCounter(limits, req.ip) })) return;
    req.log.warn({ ip: req.ip }, 'CDEK call refused: a cap was hit');
    return reply
      .code(429)
      .header('retry-after', '60')
      .header('cache-control', 'no-store')
      .send({ error: LIMIT_TEXT.cdek } satisfies ApiError);
  });

  /** CDEK's failure as an answer: its refusal of the request is 400, an outage 502; both logged. */
  function providerFailed(req: FastifyRequest, reply: FastifyReply, err: unknown, what: string): FastifyReply {
    const status = err instanceof CdekError ? err.status : null;
    const refused =
      status !== null && status >= 400 && status < 500 && status !== 401 && status !== 403 && status !== 429;
    req.log.warn(
      { err: err instanceof Error ? err.message : String(err), status, provider: cdek.kind },
      `CDEK ${what} failed`,
    );
    return reply
      .code(refused ? 400 : 502)
      .header('cache-control', 'no-store')
      .send({ error: refused ? CDEK_REFUSED : CDEK_UNAVAILABLE } satisfies ApiError);
  }

  async function sendMap(
    req: FastifyRequest,
    reply: FastifyReply,
    city: ShopCity,
    as: 'html' | 'json',
  ): Promise<FastifyReply> {
    if (city.cdekCode === null) return badRequest(reply, CDEK_NOT_SERVED);
    let points: CdekDeliveryPoint[];
    try {
      points = await cdek.deliveryPoints({ city_code: city.cdekCode, type: 'ALL' });
    } catch (err) {
      return providerFailed(req, reply, err, 'delivery points');
    }
    const html = mapDocument(city, points, assetBase, mapTiles);
    if (as === 'json') return reply.header('cache-control', 'no-store').send({ html });
    return reply.type('text/html; charset=utf-8').header('cache-control', 'public, max-age=600').send(html);
  }

  for (const name of Object.keys(LEAFLET_FILES) as (keyof typeof LEAFLET_FILES)[]) {
    defineRoute(app, {
      method: 'GET',
      url: `/api/cdek/${name}`,
      summary: `Leaflet's ${name} for the pickup-point map page (served here: the page works with no internet but the tiles)`,
      responses: {
        200: { description: name, schema: z.string(), contentType: LEAFLET_FILES[name].type },
        404: { description: 'The file is missing from the installation', schema: ApiError },
      },
      handler: async (_input, req, reply) => {
        let content: Buffer;
        try {
          content = await readLeaflet(name);
        } catch (err) {
          req.log.error({ err }, 'leaflet asset missing');
          return reply.code(404).send({ error: 'Файл карты не найден' } satisfies ApiError);
        }
        // Leaflet changes only with a dependency update: a day of caching is safe.
        return reply.type(LEAFLET_FILES[name].type).header('cache-control', 'public, max-age=86400').send(content);
      },
    });
  }

  defineRoute(app, {
    method: 'GET',
    url: '/api/cdek/',
    summary:
      "CDEK map widget proxy (action=offices: the city's delivery points, CDEK's shape) or the pickup-point map page (action=map)",
    query: OfficesQuery,
    responses: {
      200: {
        description: 'Delivery points (JSON), or the map page (text/html)',
        content: { 'application/json': z.array(PointAnswer), 'text/html; charset=utf-8': MAP_PAGE },
      },
      ...CDEK_ANSWERS,
    },
    handler: async ({ query }, req, reply) => {
      const action = query.action ?? 'offices';
      if (action !== 'offices' && action !== 'map') return badRequest(reply, CDEK_UNKNOWN_ACTION);
      if (query.city_code === undefined) return badRequest(reply, CDEK_NO_CITY);
      const city = cityByCode(query.city_code);
      if (!city) return badRequest(reply, CDEK_BAD_CITY);
      if (action === 'map') return sendMap(req, reply, city, 'html');
      let points: CdekDeliveryPoint[];
      try {
        points = await cdek.deliveryPoints({ city_code: query.city_code, type: query.type });
      } catch (err) {
        return providerFailed(req, reply, err, 'delivery points');
      }
      if (query.is_dressing_room === 'true' || query.is_dressing_room === '1')
        points = points.filter((p) => p.is_dressing_room);
      return reply.header('cache-control', 'public, max-age=600').send(points);
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/api/cdek/',
    summary:
      'JSON {"action":"calculate", to_location, packages}: the widget\'s tariff list (from the shop\'s warehouse); or a form with piniaState or city_code: { html } of the pickup-point map page',
    bodyType: ['json', 'form'],
    body: PostBody,
    parse: cdekPostParse,
    bodyLimit: 64 * 1024,
    responses: {
      200: {
        description: 'The tariff list, or { html } of the map page',
        schema: z.union([TariffAnswer, z.object({ html: MAP_PAGE })]),
      },
      ...CDEK_ANSWERS,
    },
    handler: async ({ body: input }, req, reply) => {
      if ('action' in input) {
        if (!cityByCode(input.to_location.code)) return badRequest(reply, CDEK_BAD_CITY);
        try {
          // Parcels leave the shop's warehouse, whatever origin the page names.
          const tariffs = await cdek.tariffList({
            from_location: { code: fromCityCode },
            to_location: { code: input.to_location.code },
            packages: input.packages.map((p) => ({
              weight: p.weight,
              length: p.length ?? DEFAULT_BOX.length,
              width: p.width ?? DEFAULT_BOX.width,
              height: p.height ?? DEFAULT_BOX.height,
            })),
          });
          return reply.header('cache-control', 'no-store').send({ tariff_codes: tariffs });
        } catch (err) {
          return providerFailed(req, reply, err, 'tariff list');
        }
      }

      let city: ShopCity | null = null;
      if (input.city_code !== undefined) {
        city = cityByCode(input.city_code);
        if (!city) return badRequest(reply, CDEK_BAD_CITY);
      } else if (input.piniaState !== undefined) {
        city = cityFromState(input.piniaState);
      }
      if (!city) return badRequest(reply, CDEK_NO_CITY);
      return sendMap(req, reply, city, 'json');
    },
  });
}
