import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDadataClient, DADATA_SUGGEST_PATH } from './dadata.server';

// A local fake of DaData's documented suggest/address (INTEGRATIONS.md §3): each test sets how
// it answers and then checks the exact request the client made.

const API_KEY = 'd4d4t4-SECRET-api-key-0123456789';

interface Received {
  method: string | undefined;
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  body: unknown;
}

type Reply = (res: http.ServerResponse) => void;

let server: http.Server;
let baseUrl: string;
let received: Received[] = [];
let reply: Reply;

function json(res: http.ServerResponse, body: unknown, status = 200) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

const TVERSKAYA = {
  value: 'ул Тверская, д 7',
  unrestricted_value: '125009, г Москва, Тверской р-н, ул Тверская, д 7',
  data: {
    postal_code: '125009',
    country: 'Россия',
    country_iso_code: 'RU',
    region_with_type: 'г Москва',
    city: 'Москва',
    city_with_type: 'г Москва',
    street_with_type: 'ул Тверская',
    house: '7',
    flat: null,
    fias_id: 'f26b876b-6857-4951-b060-ec6559f04a9a',
    kladr_id: '7700000000007280015',
    fias_level: '8',
    geo_lat: '55.757962',
    geo_lon: '37.611006',
    qc_geo: '0',
  },
};

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: unknown = null;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = 'not json';
      }
      received.push({
        method: req.method,
        path: new URL(req.url ?? '/', 'http://fake').pathname,
        authorization: req.headers.authorization,
        contentType: req.headers['content-type'],
        body,
      });
      reply(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  received = [];
  reply = (res) => json(res, { suggestions: [TVERSKAYA] });
});

function warnings() {
  const logged: Array<{ obj: object; msg: string }> = [];
  return { logged, log: { warn: (obj: object, msg: string) => logged.push({ obj, msg }) } };
}

describe('DaData client', () => {
  it('posts the documented JSON with the token and maps the answer', async () => {
    const dadata = createDadataClient({ apiKey: API_KEY, baseUrl });
    expect(dadata.kind).toBe('dadata');
    const result = await dadata.suggest({
      query: ' тверская 7 ',
      count: 5,
      locations: [{ city: 'Москва' }],
      restrictValue: true,
      fromBound: 'street',
      toBound: 'house',
    });

    expect(received).toEqual([
      {
        method: 'POST',
        path: DADATA_SUGGEST_PATH,
        authorization: `Token ${API_KEY}`,
        contentType: 'application/json',
        body: {
          query: 'тверская 7',
          count: 5,
          locations: [{ city: 'Москва' }],
          restrict_value: true,
          from_bound: { value: 'street' },
          to_bound: { value: 'house' },
        },
      },
    ]);
    expect(result.suggestions).toHaveLength(1);
    const [s] = result.suggestions;
    expect(s?.value).toBe('ул Тверская, д 7');
    expect(s?.unrestricted_value).toBe(TVERSKAYA.unrestricted_value);
    // The fields the shop reads, missing ones as null, nothing else.
    expect(s?.data).toMatchObject({
      postal_code: '125009',
      city_with_type: 'г Москва',
      house: '7',
      street: null,
      geo_lat: '55.757962',
    });
    expect(s?.data).not.toHaveProperty('qc_geo');
  });

  it('sends only query and count by default, count capped at 20', async () => {
    await createDadataClient({ apiKey: API_KEY, baseUrl: `${baseUrl}/` }).suggest({ query: 'казань', count: 100 });
    expect(received[0]?.path).toBe(DADATA_SUGGEST_PATH);
    expect(received[0]?.body).toEqual({ query: 'казань', count: 20 });
    await createDadataClient({ apiKey: API_KEY, baseUrl }).suggest({ query: 'казань' });
    expect(received[1]?.body).toEqual({ query: 'казань', count: 10 });
  });

  it('does not call DaData for a blank or over-long query', async () => {
    const dadata = createDadataClient({ apiKey: API_KEY, baseUrl });
    expect(await dadata.suggest({ query: '  ' })).toEqual({ suggestions: [] });
    expect(await dadata.suggest({ query: 'а'.repeat(301) })).toEqual({ suggestions: [] });
    expect(received).toHaveLength(0);
  });

  it('skips suggestions without a value', async () => {
    reply = (res) =>
      json(res, {
        suggestions: [{ value: '' }, 'junk', { value: 'г Казань', data: { city: 'Казань', geo_lat: 55.79 } }],
      });
    const { suggestions } = await createDadataClient({ apiKey: API_KEY, baseUrl }).suggest({ query: 'каз' });
    expect(suggestions.map((s) => [s.value, s.unrestricted_value, s.data.city, s.data.geo_lat])).toEqual([
      ['г Казань', 'г Казань', 'Казань', '55.79'],
    ]);
  });

  it('answers nothing and warns when over quota (403), without the key or the query', async () => {
    reply = (res) =>
      json(res, { family: 'CLIENT_ERROR', reason: 'Forbidden', message: "Feature 'SUGGESTIONS' disabled" }, 403);
    const { logged, log } = warnings();
    const result = await createDadataClient({ apiKey: API_KEY, baseUrl, log }).suggest({
      query: 'ул Тверская 7 кв 12',
    });
    expect(result).toEqual({ suggestions: [] });
    expect(logged).toHaveLength(1);
    expect(logged[0]?.obj).toMatchObject({ dadata: { status: 403 } });
    const line = JSON.stringify(logged);
    expect(line).not.toContain(API_KEY);
    expect(line).not.toContain('Тверская');
  });

  it('answers nothing and warns on a 500 or an answer that is not JSON', async () => {
    const { logged, log } = warnings();
    const dadata = createDadataClient({ apiKey: API_KEY, baseUrl, log });
    reply = (res) => json(res, { message: 'boom' }, 500);
    expect(await dadata.suggest({ query: 'москва' })).toEqual({ suggestions: [] });
    reply = (res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>maintenance</html>');
    };
    expect(await dadata.suggest({ query: 'москва' })).toEqual({ suggestions: [] });
    expect(logged).toHaveLength(2);
  });

  it('gives up after the timeout with nothing, not an error', async () => {
    reply = () => {
      // Never answer; afterAll closes the connection.
    };
    const { logged, log } = warnings();
    const started = Date.now();
    expect(
      await createDadataClient({ apiKey: API_KEY, baseUrl, timeoutMs: 150, log }).suggest({ query: 'москва' }),
    ).toEqual({ suggestions: [] });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(logged[0]?.obj).toMatchObject({ dadata: { reason: 'no answer within 150 ms' } });
  });

  it('answers nothing when DaData cannot be reached', async () => {
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const { logged, log } = warnings();
    expect(
      await createDadataClient({ apiKey: API_KEY, baseUrl: `http://127.0.0.1:${port}`, log }).suggest({
        query: 'москва',
      }),
    ).toEqual({
      suggestions: [],
    });
    expect(logged[0]?.obj).toMatchObject({ dadata: { reason: 'could not reach the service' } });
  });
});
