import { findShopCity, normaliseCityName, SHOP_CITIES } from '~/core/delivery-cities';
import type { AddressSuggestions } from '~/integrations/dadata/index.server';

/** Letters of any alphabet with spaces, hyphens, dots, apostrophes and brackets: 'Ростов-на-Дону', 'п. Шушары'. */
const isPlaceName = (name: string): boolean => /^[\p{L}][\p{L}\p{M} .'’()-]*[\p{L})]$/u.test(name.trim());

/**
 * The city as the shop writes it when `name` is one (issue #26: the account's address form saved
 * a half-typed «Санкт-Пет»): one of the shop's delivery cities (get_cities.php), or a city or
 * settlement the address suggestions know by exactly that name, as checkout's city field offers
 * them. Null when it is not. The offline stand-in knows only a handful of cities, so with it a
 * name it does not know passes when it is a place name and not the start of a known city's.
 */
export async function knownCityName(suggestions: AddressSuggestions, name: string): Promise<string | null> {
  const wanted = normaliseCityName(name);
  if (!wanted || !isPlaceName(name)) return null;
  const own = findShopCity(name);
  if (own) return own.cdekCode === null ? null : own.name;
  const found = await suggestions.suggest({ query: name.trim(), fromBound: 'city', toBound: 'settlement', count: 10 });
  const candidates = found.suggestions
    .flatMap((s) => [s.data.city, s.data.settlement_with_type, s.value])
    .filter((c): c is string => !!c);
  const exact = candidates.find((c) => normaliseCityName(c) === wanted);
  if (exact) return exact;
  if (suggestions.kind !== 'offline') return null;
  const started = [...candidates, ...SHOP_CITIES.map((c) => c.name)].some((c) =>
    normaliseCityName(c).startsWith(wanted),
  );
  return started ? null : name.trim().replace(/\s+/g, ' ');
}
