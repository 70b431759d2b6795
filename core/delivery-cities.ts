// The cities the shop delivers to (content/pages/delivery.md: Moscow, all of Russia, Belarus,
// Kazakhstan, the other CIS countries, and the rest of the world by agreement). CDEK city
// codes: Moscow 44 and Saint Petersburg 137 as INTEGRATIONS.md gives them; the others are
// CDEK's codes as its city list gave them and must be checked against `GET /location/cities`
// before a real contract goes live (the real client can look a name up: integrations/cdek).

/** Delivery regions with their own promised times (delivery.md «Сроки»). */
export type DeliveryRegion = 'moscow' | 'russia' | 'by-kz' | 'cis' | 'world';

export interface ShopCity {
  /** CDEK city code; the world entry has none. */
  cdekCode: number | null;
  name: string;
  /** DaData's spelling of the region ('Свердловская обл'); '' for federal cities and abroad capitals. */
  region: string;
  country: string;
  /** ISO 3166-1 alpha-2; 'ZZ' for the world entry. */
  countryCode: string;
  deliveryRegion: DeliveryRegion;
  /** The offline tariff table's distance zone from the Moscow warehouse: 0 Moscow … 6 farthest. */
  tariffZone: number;
  latitude: number;
  longitude: number;
}

const city = (
  cdekCode: number | null,
  name: string,
  region: string,
  country: string,
  countryCode: string,
  deliveryRegion: DeliveryRegion,
  tariffZone: number,
  latitude: number,
  longitude: number,
): ShopCity => ({ cdekCode, name, region, country, countryCode, deliveryRegion, tariffZone, latitude, longitude });

export const SHOP_CITIES: readonly ShopCity[] = [
  city(44, 'Москва', '', 'Россия', 'RU', 'moscow', 0, 55.7540471, 37.620405),
  city(137, 'Санкт-Петербург', '', 'Россия', 'RU', 'russia', 1, 59.9391313, 30.3159004),
  city(424, 'Казань', 'Респ Татарстан', 'Россия', 'RU', 'russia', 2, 55.7943584, 49.1114975),
  city(250, 'Екатеринбург', 'Свердловская обл', 'Россия', 'RU', 'russia', 3, 56.8386326, 60.6054887),
  city(270, 'Новосибирск', 'Новосибирская обл', 'Россия', 'RU', 'russia', 4, 55.0282171, 82.9234509),
  city(414, 'Нижний Новгород', 'Нижегородская обл', 'Россия', 'RU', 'russia', 1, 56.3242093, 44.0053948),
  city(435, 'Краснодар', 'Краснодарский край', 'Россия', 'RU', 'russia', 2, 45.0401604, 38.9759647),
  city(430, 'Самара', 'Самарская обл', 'Россия', 'RU', 'russia', 2, 53.1950306, 50.1069518),
  city(438, 'Ростов-на-Дону', 'Ростовская обл', 'Россия', 'RU', 'russia', 2, 47.2224566, 39.718803),
  city(506, 'Воронеж', 'Воронежская обл', 'Россия', 'RU', 'russia', 1, 51.6592378, 39.1968284),
  city(248, 'Пермь', 'Пермский край', 'Россия', 'RU', 'russia', 3, 58.0102583, 56.2342034),
  city(256, 'Уфа', 'Респ Башкортостан', 'Россия', 'RU', 'russia', 3, 54.734944, 55.9578468),
  city(259, 'Челябинск', 'Челябинская обл', 'Россия', 'RU', 'russia', 3, 55.1602624, 61.4008078),
  city(278, 'Красноярск', 'Красноярский край', 'Россия', 'RU', 'russia', 5, 56.009466, 92.8524162),
  city(152, 'Калининград', 'Калининградская обл', 'Россия', 'RU', 'russia', 3, 54.7074702, 20.5073241),
  city(1063, 'Сочи', 'Краснодарский край', 'Россия', 'RU', 'russia', 3, 43.5854551, 39.7231548),
  city(288, 'Владивосток', 'Приморский край', 'Россия', 'RU', 'russia', 6, 43.1163807, 131.882348),
  city(9220, 'Минск', '', 'Беларусь', 'BY', 'by-kz', 2, 53.9024716, 27.5618225),
  city(4756, 'Алматы', '', 'Казахстан', 'KZ', 'by-kz', 5, 43.2380062, 76.9457272),
  city(4961, 'Астана', '', 'Казахстан', 'KZ', 'by-kz', 5, 51.1282205, 71.4306682),
  city(7114, 'Ереван', '', 'Армения', 'AM', 'cis', 5, 40.1776121, 44.5125849),
  city(5444, 'Бишкек', '', 'Киргизия', 'KG', 'cis', 6, 42.87, 74.59),
  city(11562, 'Ташкент', '', 'Узбекистан', 'UZ', 'cis', 6, 41.3123363, 69.2787079),
  city(null, 'Другая страна', '', 'Другие страны', 'ZZ', 'world', 6, 0, 0),
];

/** The world entry: delivery by agreement, no online cost. */
export const WORLD_CITY = SHOP_CITIES[SHOP_CITIES.length - 1] as ShopCity;

/** 'г Москва', ' москва ', 'Москва, Россия' → 'москва'. */
export function normaliseCityName(name: string): string {
  return name
    .toLowerCase()
    .replace(/ё/g, 'е')
    .replace(/^\s*(г\.?|город)\s+/, '')
    .split(',')[0]!
    .trim()
    .replace(/\s+/g, ' ');
}

/** The shop's city of that name (or of that CDEK code), or null. */
export function findShopCity(name: string): ShopCity | null {
  const wanted = normaliseCityName(name);
  if (!wanted) return null;
  if (/^\d{1,7}$/.test(wanted)) return SHOP_CITIES.find((c) => String(c.cdekCode) === wanted) ?? null;
  return SHOP_CITIES.find((c) => normaliseCityName(c.name) === wanted) ?? null;
}
