import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CDEK_TARIFF, CdekError, type CdekOrderRequest } from './cdek';
import { createCdekClient } from './cdek.server';

// A local fake of CDEK API v2 as INTEGRATIONS.md §2 documents it: OAuth client credentials,
// then bearer calls. Each test sets how the API answers and checks the requests the client made.

const CLIENT_ID = 'test-client-id';
const CLIENT_SECRET = 'S3CRET-cdek-client-secret-value';

interface Received {
  method: string;
  path: string;
  query: Record<string, string>;
  authorization: string | undefined;
  contentType: string | undefined;
  body: unknown;
}

type Handler = (req: Received, res: http.ServerResponse) => void;

let server: http.Server;
let baseUrl: string;
let received: Received[];
let issued: number;
let validTokens: Set<string>;
let tokenReply: Handler;
let apiReply: Handler;

function json(res: http.ServerResponse, body: unknown, status = 200) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

const issueToken: Handler = (req, res) => {
  const form = req.body as Record<string, string>;
  if (
    form.grant_type !== 'client_credentials' ||
    form.client_id !== CLIENT_ID ||
    form.client_secret !== CLIENT_SECRET
  ) {
    json(
      res,
      { error: 'invalid_client', error_description: `Bad client credentials ${String(form.client_secret)}` },
      401,
    );
    return;
  }
  issued += 1;
  const token = `token-${issued}`;
  validTokens.add(token);
  json(res, {
    access_token: token,
    token_type: 'bearer',
    expires_in: 3600,
    scope: 'order:all payment:all',
    jti: `jti-${issued}`,
  });
};

const RAW_POINT = {
  code: 'MSK67',
  name: 'На Маросейке',
  uuid: '6d9b0ad6-0000-4000-8000-000000000001',
  work_time: 'Пн-Пт 10:00-21:00, Сб-Вс 10:00-18:00',
  work_time_list: [
    { day: 1, time: '10:00/21:00' },
    { day: 6, time: '10:00/18:00' },
  ],
  phones: [{ number: '+74951234567' }],
  note: '',
  type: 'PVZ',
  owner_code: 'CDEK',
  take_only: false,
  is_handout: true,
  is_dressing_room: true,
  have_cashless: true,
  have_cash: true,
  allowed_cod: true,
  nearest_metro_station: 'Китай-город',
  address_comment: 'Вход со двора',
  weight_max: 30,
  location: {
    country_code: 'RU',
    region_code: 81,
    region: 'Москва',
    city_code: 44,
    city: 'Москва',
    postal_code: '101000',
    longitude: 37.633,
    latitude: 55.757,
    address: 'ул. Маросейка, 2/15',
    address_full: '101000, Россия, Москва, Москва, ул. Маросейка, 2/15',
  },
};

const RAW_LOCKER = {
  ...RAW_POINT,
  code: 'MSK1024',
  type: 'POSTAMAT',
  nearest_metro_station: '',
  dimensions: [{ width: 36, height: 9, depth: 60 }],
};

const defaultApi: Handler = (req, res) => {
  if (req.method === 'GET' && req.path === '/v2/deliverypoints')
    return json(res, [RAW_POINT, RAW_LOCKER, { junk: true }]);
  if (req.method === 'POST' && req.path === '/v2/calculator/tariff') {
    return json(res, {
      delivery_sum: 412.5,
      period_min: 2,
      period_max: 4,
      calendar_min: 2,
      calendar_max: 4,
      weight_calc: 1200,
      total_sum: 430,
      currency: 'RUB',
    });
  }
  if (req.method === 'POST' && req.path === '/v2/calculator/tarifflist') {
    return json(res, {
      tariff_codes: [
        {
          tariff_code: 136,
          tariff_name: 'Посылка склад-склад',
          tariff_description: '…',
          delivery_mode: 4,
          delivery_sum: 400,
          period_min: 2,
          period_max: 4,
        },
        {
          tariff_code: 137,
          tariff_name: 'Посылка склад-дверь',
          delivery_mode: 3,
          delivery_sum: 560,
          period_min: 2,
          period_max: 5,
        },
        { nonsense: 1 },
      ],
    });
  }
  if (req.method === 'POST' && req.path === '/v2/orders') {
    return json(
      res,
      {
        entity: { uuid: '72753031-1111-4000-8000-000000000042' },
        requests: [{ request_uuid: 'r-1', type: 'CREATE', state: 'ACCEPTED', date_time: '2026-11-24T12:00:00+0000' }],
      },
      202,
    );
  }
  if (req.method === 'GET' && req.path.startsWith('/v2/orders/')) {
    return json(res, {
      entity: { uuid: req.path.slice('/v2/orders/'.length), cdek_number: '1106207236', number: 'V-100042' },
      requests: [{ type: 'CREATE', state: 'SUCCESSFUL' }],
    });
  }
  json(res, { errors: [{ code: 'v2_not_found', message: 'Not found' }] }, 404);
};

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = null;
      if (req.headers['content-type']?.startsWith('application/x-www-form-urlencoded'))
        body = Object.fromEntries(new URLSearchParams(text));
      else if (text !== '') {
        try {
          body = JSON.parse(text);
        } catch {
          body = 'not json';
        }
      }
      const r: Received = {
        method: req.method ?? '',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        authorization: req.headers.authorization,
        contentType: req.headers['content-type'],
        body,
      };
      received.push(r);
      if (r.path === '/v2/oauth/token') return tokenReply(r, res);
      const bearer = r.authorization?.replace(/^Bearer /, '') ?? '';
      if (!validTokens.has(bearer))
        return json(res, { errors: [{ code: 'v2_token_expired', message: 'token expired' }] }, 401);
      apiReply(r, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  received = [];
  issued = 0;
  validTokens = new Set();
  tokenReply = issueToken;
  apiReply = defaultApi;
});

function warnings() {
  const logged: Array<{ obj: object; msg: string }> = [];
  return { logged, log: { warn: (obj: object, msg: string) => logged.push({ obj, msg }) } };
}

const client = (extra: Partial<Parameters<typeof createCdekClient>[0]> = {}) =>
  createCdekClient({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, baseUrl, timeoutMs: 2_000, ...extra });

const TARIFF = {
  tariff_code: CDEK_TARIFF.toPoint,
  from_location: { code: 44 },
  to_location: { code: 137 },
  packages: [{ weight: 1200, length: 40, width: 30, height: 10 }],
};

const ORDER: CdekOrderRequest = {
  type: 1,
  number: 'V-100042',
  tariff_code: CDEK_TARIFF.toPoint,
  delivery_point: 'SPB12',
  from_location: { code: 44 },
  recipient: { name: 'Анна Смирнова', phones: [{ number: '+79161234567' }] },
  packages: [{ number: '1', weight: 1200, length: 40, width: 30, height: 10, items: [] }],
};

const paths = () => received.map((r) => `${r.method} ${r.path}`);

describe('CDEK client: authorisation', () => {
  it('gets a token with the documented form once and reuses it as Bearer', async () => {
    const cdek = client();
    expect(cdek.kind).toBe('cdek');
    await cdek.calculateTariff(TARIFF);
    await cdek.deliveryPoints({ city_code: 44 });
    expect(paths()).toEqual(['POST /v2/oauth/token', 'POST /v2/calculator/tariff', 'GET /v2/deliverypoints']);
    expect(received[0]).toMatchObject({
      contentType: 'application/x-www-form-urlencoded',
      body: { grant_type: 'client_credentials', client_id: CLIENT_ID, client_secret: CLIENT_SECRET },
    });
    expect(received[1]?.authorization).toBe('Bearer token-1');
    expect(received[2]?.authorization).toBe('Bearer token-1');
  });

  it('renews the token shortly before expires_in runs out', async () => {
    let now = 1_000_000;
    const cdek = client({ now: () => now });
    await cdek.deliveryPoints({ city_code: 44 });
    now += 3_500_000; // 58 min 20 s: still good.
    await cdek.deliveryPoints({ city_code: 44 });
    expect(issued).toBe(1);
    now += 60_000; // Within the last minute: renewed first.
    await cdek.deliveryPoints({ city_code: 44 });
    expect(issued).toBe(2);
    expect(received.at(-1)?.authorization).toBe('Bearer token-2');
  });

  it('shares one token request between concurrent calls', async () => {
    const cdek = client();
    await Promise.all([cdek.deliveryPoints({ city_code: 44 }), cdek.calculateTariff(TARIFF), cdek.tariffList(TARIFF)]);
    expect(issued).toBe(1);
  });

  it('on a 401 gets a fresh token and tries once more', async () => {
    const cdek = client();
    await cdek.deliveryPoints({ city_code: 44 });
    validTokens.clear(); // Revoked early.
    const points = await cdek.deliveryPoints({ city_code: 44 });
    expect(points).toHaveLength(2);
    expect(paths().slice(1)).toEqual([
      'GET /v2/deliverypoints',
      'GET /v2/deliverypoints',
      'POST /v2/oauth/token',
      'GET /v2/deliverypoints',
    ]);
    expect(received.at(-1)?.authorization).toBe('Bearer token-2');
  });

  it('gives up after the second 401', async () => {
    apiReply = (_req, res) => json(res, { errors: [{ code: 'v2_unauthorized', message: 'no' }] }, 401);
    const error = await client()
      .deliveryPoints({ city_code: 44 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CdekError);
    expect((error as CdekError).status).toBe(401);
    expect(issued).toBe(2);
  });

  it('fails on wrong credentials without repeating the secret, in the error or the log', async () => {
    const { logged, log } = warnings();
    const error = await createCdekClient({ clientId: CLIENT_ID, clientSecret: 'wrong-secret-XYZ', baseUrl, log })
      .calculateTariff(TARIFF)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CdekError);
    expect((error as CdekError).status).toBe(401);
    expect((error as CdekError).message).toMatch(/oauth\/token: HTTP 401/);
    const everything = `${(error as Error).message} ${JSON.stringify(logged)}`;
    expect(everything).not.toContain('wrong-secret-XYZ');
    expect(logged).toHaveLength(1);
  });

  it('refuses to start without credentials', () => {
    expect(() => createCdekClient({ clientId: '', clientSecret: CLIENT_SECRET })).toThrow();
  });
});

describe('CDEK client: calls', () => {
  it('asks for pickup points by city and type and maps them to the shop shape', async () => {
    const points = await client().deliveryPoints({ city_code: 44, type: 'PVZ' });
    expect(received[1]?.query).toEqual({ city_code: '44', type: 'PVZ' });
    expect(points.map((p) => p.code)).toEqual(['MSK67', 'MSK1024']);
    expect(points[0]).toEqual({
      code: 'MSK67',
      name: 'На Маросейке',
      type: 'PVZ',
      location: {
        country_code: 'RU',
        region: 'Москва',
        city_code: 44,
        city: 'Москва',
        postal_code: '101000',
        longitude: 37.633,
        latitude: 55.757,
        address: 'ул. Маросейка, 2/15',
        address_full: '101000, Россия, Москва, Москва, ул. Маросейка, 2/15',
      },
      address_comment: 'Вход со двора',
      nearest_metro_station: 'Китай-город',
      work_time: 'Пн-Пт 10:00-21:00, Сб-Вс 10:00-18:00',
      work_time_list: RAW_POINT.work_time_list,
      phones: [{ number: '+74951234567' }],
      note: '',
      is_dressing_room: true,
      take_only: false,
      have_cashless: true,
      allowed_cod: true,
      weight_max: 30,
    });
    expect(points[1]).toMatchObject({
      type: 'POSTAMAT',
      nearest_metro_station: null,
      dimensions: [{ width: 36, height: 9, depth: 60 }],
    });
    await client().deliveryPoints({ city_code: 137 });
    expect(received.at(-1)?.query).toEqual({ city_code: '137', type: 'ALL' });
  });

  it('posts the calculator body with type 1 and reads the answer', async () => {
    const result = await client().calculateTariff(TARIFF);
    expect(received[1]).toMatchObject({ contentType: 'application/json', body: { type: 1, ...TARIFF } });
    expect(result).toEqual({ delivery_sum: 412.5, period_min: 2, period_max: 4, total_sum: 430, currency: 'RUB' });
  });

  it('turns an `errors` answer of the calculator into CdekError, with or without an error status', async () => {
    apiReply = (_req, res) =>
      json(res, { errors: [{ code: 'ERR_RESULT_SERVICE_EMPTY', message: 'Нет доступных тарифов' }] });
    await expect(client().calculateTariff(TARIFF)).rejects.toThrow(/ERR_RESULT_SERVICE_EMPTY: Нет доступных тарифов/);
    apiReply = (_req, res) =>
      json(
        res,
        { requests: [{ state: 'INVALID', errors: [{ code: 'v2_field_is_empty', message: 'to_location' }] }] },
        400,
      );
    const error = await client()
      .calculateTariff(TARIFF)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: 'CdekError',
      status: 400,
      message: expect.stringContaining('v2_field_is_empty'),
    });
  });

  it('lists tariffs, skipping malformed entries', async () => {
    const { tariff_code: _omitted, ...route } = TARIFF;
    const list = await client().tariffList(route);
    expect(received[1]?.path).toBe('/v2/calculator/tarifflist');
    expect(received[1]?.body).toEqual({ type: 1, ...route });
    expect(list).toEqual([
      {
        tariff_code: 136,
        tariff_name: 'Посылка склад-склад',
        delivery_mode: 4,
        delivery_sum: 400,
        period_min: 2,
        period_max: 4,
      },
      {
        tariff_code: 137,
        tariff_name: 'Посылка склад-дверь',
        delivery_mode: 3,
        delivery_sum: 560,
        period_min: 2,
        period_max: 5,
      },
    ]);
  });

  it('registers an order (202 ACCEPTED) and reads its track number later', async () => {
    const cdek = client();
    const created = await cdek.createOrder(ORDER);
    expect(received[1]).toMatchObject({ method: 'POST', path: '/v2/orders', body: ORDER });
    expect(created).toEqual({
      uuid: '72753031-1111-4000-8000-000000000042',
      state: 'ACCEPTED',
      cdek_number: null,
      errors: [],
    });
    const read = await cdek.getOrder(created.uuid);
    expect(received.at(-1)?.path).toBe(`/v2/orders/${created.uuid}`);
    expect(read).toEqual({ uuid: created.uuid, state: 'SUCCESSFUL', cdek_number: '1106207236', errors: [] });
  });

  it('reports an INVALID order with its errors, and refuses a malformed uuid without a call', async () => {
    apiReply = (_req, res) =>
      json(res, {
        entity: { uuid: '72753031-1111-4000-8000-000000000043' },
        requests: [
          { type: 'CREATE', state: 'INVALID', errors: [{ code: 'v2_entity_not_found', message: 'delivery_point' }] },
        ],
      });
    const result = await client().getOrder('72753031-1111-4000-8000-000000000043');
    expect(result).toMatchObject({
      state: 'INVALID',
      cdek_number: null,
      errors: ['v2_entity_not_found: delivery_point'],
    });
    const before = received.length;
    await expect(client().getOrder('../../oauth/token')).rejects.toThrow(CdekError);
    expect(received.length).toBe(before);
  });
});

describe('CDEK client: failures', () => {
  it('turns a 500 and an answer that is not JSON into CdekError', async () => {
    const { logged, log } = warnings();
    apiReply = (_req, res) => json(res, { message: 'boom' }, 500);
    await expect(client({ log }).deliveryPoints({ city_code: 44 })).rejects.toMatchObject({
      name: 'CdekError',
      status: 500,
    });
    apiReply = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>maintenance</html>');
    };
    await expect(client({ log }).deliveryPoints({ city_code: 44 })).rejects.toThrow(/not a list/);
    await expect(client({ log }).calculateTariff(TARIFF)).rejects.toThrow(/no delivery_sum/);
    expect(logged).toHaveLength(3);
    expect(JSON.stringify(logged)).not.toContain(CLIENT_SECRET);
  });

  it('gives up after the timeout', async () => {
    apiReply = () => {
      // Never answer; afterAll closes the connection.
    };
    const started = Date.now();
    await expect(client({ timeoutMs: 150 }).calculateTariff(TARIFF)).rejects.toThrow(/no answer within 150 ms/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('times out the token request too', async () => {
    tokenReply = () => {};
    await expect(client({ timeoutMs: 150 }).calculateTariff(TARIFF)).rejects.toThrow(
      /oauth\/token: no answer within 150 ms/,
    );
  });

  it('fails cleanly when CDEK cannot be reached', async () => {
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const error = await createCdekClient({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      baseUrl: `http://127.0.0.1:${port}/v2`,
    })
      .deliveryPoints({ city_code: 44 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CdekError);
    expect((error as Error).message).toMatch(/could not reach CDEK/);
    expect((error as Error).message).not.toContain(CLIENT_SECRET);
  });

  it('never puts the secret into an error even when CDEK echoes it', async () => {
    apiReply = (_req, res) =>
      json(res, { errors: [{ code: 'v2_bad', message: `secret was ${CLIENT_SECRET}, token token-1` }] }, 400);
    const error = await client()
      .deliveryPoints({ city_code: 44 })
      .catch((e: unknown) => e);
    expect((error as Error).message).not.toContain(CLIENT_SECRET);
    expect((error as Error).message).not.toContain('token-1');
  });
});
