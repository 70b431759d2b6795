import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { AddressSuggestionsResponse, ApiError } from '~/shared/contract';
import { ApiClient } from '~/shared/api-client';
import { expectContract, fetchJson, postForm } from '~/tests/support/api';
import { setUpTestShop } from '~/tests/support/server';

// SPEC §7 `POST /api/dadata/` over HTTP, answered by the offline stand-in (DADATA_PROVIDER
// unset), on PGlite or (TEST_DATABASE_URL) PostgreSQL, where the per-IP limit is counted.

// The per-minute windows are read on a clock held in the middle of one minute: no test waits for the wall clock.
const RATE_NOW = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 30_000);
const shop = setUpTestShop({ rateClock: () => RATE_NOW });

const form = postForm;

async function suggest(fields: Record<string, string>) {
  return (await fetchJson(shop.baseUrl, '/backend/api/dadata/', AddressSuggestionsResponse, { init: form(fields) }))
    .body;
}

const values = async (fields: Record<string, string>) => (await suggest(fields)).suggestions.map((s) => s.value);

/** One call from another loopback address (Linux answers on all of 127/8): a fresh per-IP counter. */
function postFrom(localAddress: string, fields: Record<string, string>): Promise<{ status: number; body: unknown }> {
  const url = new URL('/backend/api/dadata/', shop.baseUrl);
  const payload = new URLSearchParams(fields).toString();
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('POST /api/dadata/', () => {
  it('suggests whole addresses by default, in DaData shapes, and is never cached', async () => {
    const { response, body } = await fetchJson(shop.baseUrl, '/backend/api/dadata/', AddressSuggestionsResponse, {
      init: form({ query: 'москва тверская 7' }),
    });
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(body.suggestions[0]).toMatchObject({
      value: 'г Москва, ул Тверская, д 7',
      unrestricted_value: expect.stringMatching(/^\d{6}, г Москва, ул Тверская, д 7$/),
      data: {
        city: 'Москва',
        street_with_type: 'ул Тверская',
        house: '7',
        postal_code: expect.stringMatching(/^\d{6}$/),
      },
    });
    expect(body.suggestions.length).toBeLessThanOrEqual(10);
  });

  it("maps type 'city' to cities only and type 'street' to streets only", async () => {
    expect(await values({ query: 'моск', type: 'city' })).toEqual(['г Москва']);
    expect(await values({ query: 'моск', type: 'street' })).toEqual([
      'Московский пр-кт',
      'ул Московская',
      'Московское ш',
    ]);
    expect(await values({ query: 'ленина', type: 'street', city: 'Новосибирск' })).toEqual(['ул Ленина']);
  });

  it('restricts to the city given and drops it from values with restrict_value', async () => {
    expect(await values({ query: 'баумана 1', city: 'Казань', restrict_value: 'true' })).toContain('ул Баумана, д 1');
    expect(await values({ query: 'баумана 1', city: 'Казань' })).toContain('г Казань, ул Баумана, д 1');
    expect(await values({ query: 'баумана', city: 'Москва', restrict_value: 'true' })).toEqual([]);
  });

  it('answers blank and over-200-character queries with no suggestions', async () => {
    expect(await suggest({ query: '' })).toEqual({ suggestions: [] });
    expect(await suggest({ query: '   ' })).toEqual({ suggestions: [] });
    expect(await suggest({})).toEqual({ suggestions: [] });
    expect(await suggest({ query: `москва ${'а'.repeat(200)}` })).toEqual({ suggestions: [] });
  });

  it('refuses an unknown type with the one error shape', async () => {
    const { body } = await fetchJson(shop.baseUrl, '/backend/api/dadata/', ApiError, {
      status: 400,
      init: form({ query: 'москва', type: 'region' }),
    });
    expect(body.error).toMatch(/^Неверный запрос: «type»/);
  });

  it('is what ApiClient.suggestAddress calls (restrict_value on by default)', async () => {
    const api = new ApiClient({ baseUrl: `${shop.baseUrl}/backend` });
    const answer = expectContract(
      AddressSuggestionsResponse,
      await api.suggestAddress({ query: 'тверская 7', city: 'Москва' }),
    );
    expect(answer.suggestions[0]?.value).toBe('ул Тверская, д 7');
    const cities = await api.suggestAddress({ query: 'екат', type: 'city', restrictValue: false });
    expect(cities.suggestions.map((s) => s.value)).toEqual(['г Екатеринбург']);
  });

  it('is published in the OpenAPI description', async () => {
    const doc = (await (await fetch(`${shop.baseUrl}/backend/openapi.json`)).json()) as {
      paths: Record<string, unknown>;
    };
    expect(doc.paths['/api/dadata/']).toMatchObject({ post: { responses: { 200: {}, 400: {}, 429: {} } } });
  });

  // Last: it spends a whole minute's allowance (of another loopback address, to be sure).
  it('allows 120 calls a minute per IP, then 429, not counting blank queries or other IPs', async () => {
    // Fixed one-minute windows: the shop's rate clock stands still inside one, so all 121 calls share it.
    for (let i = 0; i < 120; i += 1) {
      const { status, body } = await postFrom('127.0.0.2', { query: i % 2 ? 'казань' : 'москва' });
      expect(status, `call ${i + 1}`).toBe(200);
      expectContract(AddressSuggestionsResponse, body);
    }
    const refused = await postFrom('127.0.0.2', { query: 'москва' });
    expect(refused.status).toBe(429);
    expect(expectContract(ApiError, refused.body).error).toMatch(/Слишком много/);

    // A blank query never reaches the provider nor the counter; another IP has its own count.
    expect(await postFrom('127.0.0.2', { query: ' ' })).toEqual({ status: 200, body: { suggestions: [] } });
    expect((await values({ query: 'москва' })).length).toBeGreaterThan(0);
  });
});
