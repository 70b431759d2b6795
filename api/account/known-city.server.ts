import { findShopCity, normaliseCityName } from '~/core/delivery-cities';
import type { AddressSuggestions } from '~/integrations/dadata/index.server';

/**
 * The city as the shop writes it when `name` is one (issue #26: the account's address form saved
 * a half-typed «Санкт-Пет»): one of the shop's delivery cities (get_cities.php), or a city or
 * settlement the address suggestions know by exactly that name, as checkout's city field offers
 * them. Null when it is neither.
 */
export async function knownCityName(suggestions: AddressSuggestions, name: string): Promise<string | null> {
  const wanted = normaliseCityName(name);
  if (!wanted) return null;
  const own = findShopCity(name);
  if (own && own.cdekCode !== null) return own.name;
  const found = await suggestions.suggest({ query: name.trim(), fromBound: 'city', toBound: 'settlement', count: 10 });
  for (const s of found.suggestions) {
    for (const candidate of [s.data.city, s.data.settlement_with_type, s.value]) {
      if (candidate && normaliseCityName(candidate) === wanted) return candidate;
    }
  }
  return null;
}
