import { createHash } from 'node:crypto';
import { GAZETTEER, STREET_TYPES } from './address-data';
import type { GazetteerCity } from './address-data';
import { MAX_QUERY_LENGTH, suggestionCount } from './dadata';
import type {
  AddressBound,
  AddressData,
  AddressLocation,
  AddressQuery,
  AddressSuggestion,
  AddressSuggestions,
} from './dadata';

// The offline stand-in (INTEGRATIONS.md §3): DaData's shapes from the built-in gazetteer
// (address-data.ts). Every word of the query must begin some word of the address (case-
// insensitive, ё read as е), and the most specific part of each suggestion must be among the
// words typed: "москва" suggests the city, "москва тверская" the street, "москва тверская 7"
// its houses. Honours `count`, `fromBound`/`toBound` (city, street, house), `locations` (a
// region or a city by name, FIAS or KLADR id) and `restrictValue`. Nothing is written
// anywhere: suggestions are reads, not messages.

const LEVELS: readonly AddressBound[] = ['region', 'area', 'city', 'settlement', 'street', 'house', 'flat'];
const CITY = LEVELS.indexOf('city');
const STREET = LEVELS.indexOf('street');
const HOUSE = LEVELS.indexOf('house');
const REGION = LEVELS.indexOf('region');

/** Lower case, ё as е, everything but letters and digits as one space. */
export function normalizeAddressText(text: string): string {
  return text
    .toLowerCase()
    .replace(/ё/g, 'е')
    .replace(/[^a-zа-я0-9]+/g, ' ')
    .trim();
}

const wordsOf = (text: string): string[] => normalizeAddressText(text).split(' ').filter(Boolean);

/** A UUID-shaped id derived from a name, so derived streets and houses keep their ids between runs. */
function derivedId(name: string): string {
  const h = createHash('sha1').update(name).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((parseInt(h.slice(16, 17), 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const coordinate = (n: number) => n.toFixed(7);

interface Street {
  withType: string;
  name: string;
  type: string;
  nameTokens: string[];
  typeTokens: string[];
  kladrId: string;
  fiasId: string;
  postalCode: number;
  lat: number;
  lon: number;
  houses: string[];
}

interface City {
  source: GazetteerCity;
  withType: string;
  regionWithType: string;
  /** Moscow and St Petersburg: the region is the city. */
  federal: boolean;
  nameTokens: string[];
  contextTokens: string[];
  streets: Street[];
}

function parseStreet(withType: string): { name: string; type: string } {
  const words = withType.split(' ');
  const first = words[0] ?? '';
  const last = words[words.length - 1] ?? '';
  if (first in STREET_TYPES) return { type: first, name: words.slice(1).join(' ') };
  if (last in STREET_TYPES) return { type: last, name: words.slice(0, -1).join(' ') };
  return { type: 'ул', name: withType };
}

/** House numbers of a street: 1…N (N from 15 to 54, fixed per street), some with a letter (12А). */
function housesOf(seed: string): string[] {
  const h = parseInt(createHash('sha1').update(seed).digest('hex').slice(0, 8), 16);
  const houses: string[] = [];
  for (let n = 1; n <= 15 + (h % 40); n += 1) {
    houses.push(String(n));
    if ((n + h) % 9 === 0) houses.push(`${n}А`);
  }
  return houses;
}

const CITIES: readonly City[] = GAZETTEER.map((source) => {
  const federal = source.regionType === 'г';
  const regionWithType =
    federal || source.regionType === 'Респ'
      ? `${source.regionType} ${source.region}`
      : `${source.region} ${source.regionType}`;
  const streets = source.streets.map((withType, index): Street => {
    const { name, type } = parseStreet(withType);
    return {
      withType,
      name,
      type,
      nameTokens: wordsOf(name),
      typeTokens: [...wordsOf(type), ...(STREET_TYPES[type] ?? []).flatMap(wordsOf)],
      kladrId: `${source.kladrId.slice(0, 11)}${String(index + 1).padStart(4, '0')}00`,
      fiasId: derivedId(`${source.fiasId}/${withType}`),
      postalCode: source.postalBase + 1 + index * 3,
      lat: source.lat + (index - 6) * 0.0041,
      lon: source.lon + ((index * 7) % 13) * 0.0037 - 0.02,
      houses: housesOf(`${source.city}/${withType}`),
    };
  });
  return {
    source,
    withType: `г ${source.city}`,
    regionWithType,
    federal,
    nameTokens: wordsOf(source.city),
    contextTokens: ['г', 'город', ...wordsOf(source.region), ...wordsOf(source.regionType)],
    streets,
  };
});

const HOUSE_TYPE_TOKENS = ['д', 'дом'];

/** A house number's words: '12а' and its number '12'. */
const houseTokens = (house: string): string[] => {
  const own = normalizeAddressText(house);
  const digits = own.match(/^\d+/)?.[0];
  return digits && digits !== own ? [own, digits] : [own];
};

interface TokenGroup {
  tokens: readonly string[];
  /** Some word of the query must fall in this group (the suggestion's own level). */
  required: boolean;
}

/** The number of query words matched exactly, or null when a word or a required part is unmatched. */
function score(words: readonly string[], groups: readonly TokenGroup[]): number | null {
  let exact = 0;
  const hit = new Set<TokenGroup>();
  for (const word of words) {
    let best = 0;
    for (const group of groups) {
      for (const token of group.tokens) {
        const m = token === word ? 2 : token.startsWith(word) ? 1 : 0;
        if (m > 0) hit.add(group);
        if (m > best) best = m;
      }
    }
    if (best === 0) return null;
    if (best === 2) exact += 1;
  }
  for (const group of groups) if (group.required && !hit.has(group)) return null;
  return exact;
}

/** How much of the address a location pins down (REGION or CITY), or null when the city is outside it. */
function locationLevel(location: AddressLocation, city: City): number | null {
  const src = city.source;
  let level = -1;
  const same = (a: string, b: string) => normalizeAddressText(a) === normalizeAddressText(b);
  if (location.region !== undefined) {
    if (![src.region, city.regionWithType].some((r) => same(location.region ?? '', r))) return null;
    level = Math.max(level, REGION);
  }
  if (location.city !== undefined) {
    if (!same(location.city, src.city) && !same(location.city, city.withType)) return null;
    level = CITY;
  }
  if (location.city_fias_id !== undefined) {
    if (location.city_fias_id.toLowerCase() !== src.fiasId) return null;
    level = CITY;
  }
  if (location.kladr_id !== undefined) {
    if (location.kladr_id === src.kladrId) level = CITY;
    else if (location.kladr_id === src.regionKladrId) level = Math.max(level, REGION);
    else return null;
  }
  return level;
}

interface Candidate {
  score: number;
  level: number;
  order: [number, number, number];
  /** Built only for the suggestions kept. */
  build: () => AddressSuggestion;
}

function buildSuggestion(
  city: City,
  street: Street | null,
  house: string | null,
  fromLevel: number,
  restrictLevel: number,
): AddressSuggestion {
  const src = city.source;
  const houseIndex = street && house ? street.houses.indexOf(house) : -1;
  const houseNumber = house ? parseInt(house, 10) : 0;
  const postal = street ? String(street.postalCode + (houseNumber > 20 ? 1 : 0)).padStart(6, '0') : null;
  const parts: Array<{ level: number; text: string }> = [{ level: CITY, text: city.withType }];
  if (street) parts.push({ level: STREET, text: street.withType });
  if (house) parts.push({ level: HOUSE, text: `д ${house}` });
  const shown = parts.filter((p) => p.level >= fromLevel);
  const unrestricted = shown.filter((p) => p.level > restrictLevel);
  const value = (unrestricted.length > 0 ? unrestricted : shown).map((p) => p.text).join(', ');
  const full = [postal, city.federal ? null : city.regionWithType, ...parts.map((p) => p.text)].filter(
    (p): p is string => p !== null,
  );

  const lat = street ? street.lat + houseNumber * 0.00021 : src.lat;
  const lon = street ? street.lon + houseNumber * 0.00013 : src.lon;
  const houseFias = street && house ? derivedId(`${street.fiasId}/${house}`) : null;
  const data: AddressData = {
    postal_code: postal,
    country: 'Россия',
    region: src.region,
    region_type: src.regionType,
    region_with_type: city.regionWithType,
    city: src.city,
    city_type: 'г',
    city_with_type: city.withType,
    city_fias_id: src.fiasId,
    city_kladr_id: src.kladrId,
    settlement_with_type: null,
    street: street?.name ?? null,
    street_type: street?.type ?? null,
    street_with_type: street?.withType ?? null,
    house,
    house_type: house ? 'д' : null,
    flat: null,
    fias_id: houseFias ?? street?.fiasId ?? src.fiasId,
    kladr_id:
      street && house
        ? `${street.kladrId.slice(0, 15)}${String(houseIndex + 1).padStart(4, '0')}`
        : (street?.kladrId ?? src.kladrId),
    fias_level: house ? '8' : street ? '7' : city.federal ? '1' : '4',
    geo_lat: coordinate(lat),
    geo_lon: coordinate(lon),
  };
  return { value, unrestricted_value: full.join(', '), data };
}

/** The stand-in's answer to one query: pure, for tests and for the gateway below. */
export function suggestOffline(input: AddressQuery): AddressSuggestion[] {
  const query = typeof input.query === 'string' ? input.query : '';
  if (query.length > MAX_QUERY_LENGTH) return [];
  const words = wordsOf(query);
  if (words.length === 0) return [];
  const from = LEVELS.indexOf(input.fromBound ?? 'region');
  const to = LEVELS.indexOf(input.toBound ?? 'flat');
  if (from < 0 || to < 0 || from > to) return [];
  // The gazetteer has cities, streets and houses: other levels give nothing of their own.
  const wantCity = from <= CITY && to >= CITY;
  const wantStreet = from <= STREET && to >= STREET;
  const wantHouse = from <= HOUSE && to >= HOUSE;
  const locations = input.locations ?? [];

  const candidates: Candidate[] = [];
  CITIES.forEach((city, cityIndex) => {
    let restrictLevel = -1;
    if (locations.length > 0) {
      const levels = locations.map((l) => locationLevel(l, city)).filter((l): l is number => l !== null);
      if (levels.length === 0) return;
      if (input.restrictValue) restrictLevel = Math.max(...levels);
    }
    const cityGroups: TokenGroup[] = [{ tokens: city.contextTokens, required: false }];
    const add = (
      s: number | null,
      level: number,
      order: [number, number, number],
      street: Street | null,
      house: string | null,
    ) => {
      if (s !== null)
        candidates.push({
          score: s,
          level,
          order,
          build: () => buildSuggestion(city, street, house, from, restrictLevel),
        });
    };
    if (wantCity)
      add(
        score(words, [...cityGroups, { tokens: city.nameTokens, required: true }]),
        CITY,
        [cityIndex, -1, -1],
        null,
        null,
      );
    if (!wantStreet && !wantHouse) return;
    const cityName: TokenGroup = { tokens: city.nameTokens, required: false };
    city.streets.forEach((street, streetIndex) => {
      const streetType: TokenGroup = { tokens: street.typeTokens, required: false };
      // Houses need their street named too, unless the form asks for houses alone (from_bound house).
      const streetName: TokenGroup = { tokens: street.nameTokens, required: true };
      const context = [...cityGroups, cityName, streetType];
      if (wantStreet) add(score(words, [...context, streetName]), STREET, [cityIndex, streetIndex, -1], street, null);
      if (!wantHouse) return;
      const houseContext = from >= HOUSE ? [...context, { ...streetName, required: false }] : [...context, streetName];
      street.houses.forEach((house, houseIndex) => {
        const groups = [
          ...houseContext,
          { tokens: HOUSE_TYPE_TOKENS, required: false },
          { tokens: houseTokens(house), required: true },
        ];
        add(score(words, groups), HOUSE, [cityIndex, streetIndex, houseIndex], street, house);
      });
    });
  });

  candidates.sort(
    (a, b) =>
      b.score - a.score ||
      a.level - b.level ||
      a.order[0] - b.order[0] ||
      a.order[1] - b.order[1] ||
      a.order[2] - b.order[2],
  );
  return candidates.slice(0, suggestionCount(input.count)).map((c) => c.build());
}

export function createOfflineAddressSuggestions(): AddressSuggestions {
  return {
    kind: 'offline',
    async suggest(input) {
      return { suggestions: suggestOffline(input) };
    },
  };
}
