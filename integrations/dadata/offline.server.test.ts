import { describe, expect, it } from 'vitest';
import { GAZETTEER } from './address-data';
import { createOfflineAddressSuggestions, normalizeAddressText, suggestOffline } from './offline.server';

const values = (input: Parameters<typeof suggestOffline>[0]) => suggestOffline(input).map((s) => s.value);

describe('the offline gazetteer', () => {
  it('has the big Russian cities with a dozen streets each', () => {
    const cities = GAZETTEER.map((c) => c.city);
    for (const city of [
      'Москва',
      'Санкт-Петербург',
      'Казань',
      'Екатеринбург',
      'Новосибирск',
      'Нижний Новгород',
      'Краснодар',
    ])
      expect(cities).toContain(city);
    for (const city of GAZETTEER) {
      expect(city.streets.length, city.city).toBeGreaterThanOrEqual(12);
      expect(new Set(city.streets).size, city.city).toBe(city.streets.length);
    }
  });
});

describe('normalizeAddressText', () => {
  it('lower-cases, reads ё as е and keeps letters and digits only', () => {
    expect(normalizeAddressText('  Ул. Кремлёвская,  д.12А ')).toBe('ул кремлевская д 12а');
  });
});

describe('offline address suggestions', () => {
  it('suggests the city for its name, the street for city and street, houses with a number', () => {
    expect(values({ query: 'казан' })).toEqual(['г Казань']);
    expect(values({ query: 'Казань Баумана' })).toEqual(['г Казань, ул Баумана']);
    expect(values({ query: 'казань баумана 1', count: 3 })).toEqual([
      'г Казань, ул Баумана, д 1',
      'г Казань, ул Баумана, д 10',
      'г Казань, ул Баумана, д 11',
    ]);
  });

  it('matches words as prefixes, in any order, case-insensitive, with ё read as е', () => {
    expect(values({ query: 'ТВЕРСК МОСК' })).toEqual(['г Москва, ул Тверская', 'г Москва, Тверской б-р']);
    expect(values({ query: 'кремлёвская' })).toEqual(['г Казань, ул Кремлевская']);
    expect(values({ query: 'проспект мира' })).toEqual(['г Москва, пр-кт Мира']);
    expect(values({ query: 'ростов-на-дону садов' })).toEqual(['г Ростов-на-Дону, ул Большая Садовая']);
    expect(values({ query: 'москва несуществующая' })).toEqual([]);
  });

  it('puts exact words first: house 7 before 70', () => {
    const houses = values({ query: 'москва тверская д 7', count: 20 });
    expect(houses[0]).toBe('г Москва, ул Тверская, д 7');
    expect(houses.slice(1).every((v) => /д 7\d/.test(v))).toBe(true);
  });

  it('answers DaData shapes: full address with postal code and region, data fields as strings', () => {
    const [suggestion] = suggestOffline({ query: 'екатеринбург малышева 5', count: 1 });
    expect(suggestion).toMatchObject({
      value: 'г Екатеринбург, ул Малышева, д 5',
      unrestricted_value: expect.stringMatching(/^62\d{4}, Свердловская обл, г Екатеринбург, ул Малышева, д 5$/),
      data: {
        postal_code: expect.stringMatching(/^62\d{4}$/),
        region_with_type: 'Свердловская обл',
        city: 'Екатеринбург',
        city_with_type: 'г Екатеринбург',
        street_with_type: 'ул Малышева',
        house: '5',
        flat: null,
        settlement_with_type: null,
        fias_level: '8',
        kladr_id: expect.stringMatching(/^66000001000\d{8}$/),
        fias_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
        geo_lat: expect.stringMatching(/^56\.\d{7}$/),
        geo_lon: expect.stringMatching(/^60\.\d{7}$/),
      },
    });
    // Moscow is its own region: named once.
    expect(suggestOffline({ query: 'москва арбат 1', count: 1 })[0]?.unrestricted_value).toMatch(
      /^1\d{5}, г Москва, ул Арбат, д 1$/,
    );
  });

  it('keeps ids stable between calls', () => {
    const a = suggestOffline({ query: 'новосибирск ленина 3', count: 1 })[0];
    const b = suggestOffline({ query: 'ленина 3 новосибирск', count: 1 })[0];
    expect(a?.data.fias_id).toBe(b?.data.fias_id);
  });

  it('honours count: 10 by default, at most 20', () => {
    expect(values({ query: 'москва тверская 1' })).toHaveLength(10);
    expect(values({ query: 'москва тверская 1', count: 3 })).toHaveLength(3);
    expect(values({ query: 'москва тверская 1', count: 500 }).length).toBeLessThanOrEqual(20);
    expect(values({ query: 'москва тверская 1', count: 0 })).toHaveLength(1);
  });

  it('honours bounds: cities only, streets only, houses only', () => {
    expect(values({ query: 'моск', fromBound: 'city', toBound: 'settlement' })).toEqual(['г Москва']);
    expect(values({ query: 'моск', fromBound: 'street', toBound: 'street' })).toEqual([
      'Московский пр-кт',
      'ул Московская',
      'Московское ш',
    ]);
    expect(values({ query: 'нижний новгород минина', toBound: 'street' })).toEqual(['г Нижний Новгород, ул Минина']);
    expect(values({ query: 'минина 1', fromBound: 'house', toBound: 'house', count: 2 })).toEqual(['д 1', 'д 10']);
    expect(values({ query: 'москва', fromBound: 'house', toBound: 'city' })).toEqual([]);
  });

  it('restricts to a city by name, FIAS or KLADR id, and to a region', () => {
    expect(values({ query: 'ленина' })).toEqual([
      'г Екатеринбург, пр-кт Ленина',
      'г Новосибирск, ул Ленина',
      'г Самара, пр-кт Ленина',
    ]);
    expect(values({ query: 'ленина', locations: [{ city: 'новосибирск' }] })).toEqual(['г Новосибирск, ул Ленина']);
    expect(values({ query: 'ленина', locations: [{ city_fias_id: '2763c110-cb8b-416a-9dac-ad28a55b4402' }] })).toEqual([
      'г Екатеринбург, пр-кт Ленина',
    ]);
    expect(values({ query: 'ленина', locations: [{ kladr_id: '6300000100000' }] })).toEqual(['г Самара, пр-кт Ленина']);
    expect(values({ query: 'ленина', locations: [{ region: 'Свердловская обл' }] })).toEqual([
      'г Екатеринбург, пр-кт Ленина',
    ]);
    expect(values({ query: 'ленина', locations: [{ city: 'Самара' }, { city: 'Новосибирск' }] })).toEqual([
      'г Новосибирск, ул Ленина',
      'г Самара, пр-кт Ленина',
    ]);
    expect(values({ query: 'ленина', locations: [{ city: 'Тверь' }] })).toEqual([]);
  });

  it('drops the restricting city from value with restrictValue, never from unrestricted_value', () => {
    const [s] = suggestOffline({ query: 'тверская 7', locations: [{ city: 'Москва' }], restrictValue: true, count: 1 });
    expect(s?.value).toBe('ул Тверская, д 7');
    expect(s?.unrestricted_value).toMatch(/г Москва, ул Тверская, д 7$/);
    expect(values({ query: 'тверская 7', locations: [{ city: 'Москва' }], count: 1 })).toEqual([
      'г Москва, ул Тверская, д 7',
    ]);
    // A region restriction hides nothing: the city stays.
    expect(values({ query: 'баумана', locations: [{ region: 'Татарстан' }], restrictValue: true })).toEqual([
      'г Казань, ул Баумана',
    ]);
    // Nothing left to show after dropping the city: the city stays.
    expect(values({ query: 'казань', locations: [{ city: 'Казань' }], restrictValue: true, toBound: 'city' })).toEqual([
      'г Казань',
    ]);
  });

  it('answers blank, punctuation-only and over-long queries with nothing', async () => {
    expect(values({ query: '' })).toEqual([]);
    expect(values({ query: ' ,. ' })).toEqual([]);
    expect(values({ query: 'москва '.repeat(50) })).toEqual([]);
    expect(await createOfflineAddressSuggestions().suggest({ query: '   ' })).toEqual({ suggestions: [] });
  });

  it('is fast enough to answer each keystroke', () => {
    const started = performance.now();
    for (let i = 0; i < 50; i += 1) suggestOffline({ query: 'а' });
    expect((performance.now() - started) / 50).toBeLessThan(20);
  });
});
