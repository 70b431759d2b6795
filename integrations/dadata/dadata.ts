// The address-suggestion seam (INTEGRATIONS.md §3): forms ask this interface, never DaData
// directly, so a machine with no internet runs the same code paths. Field names are DaData's.

/** DaData's granularity levels, for `fromBound` / `toBound`. */
export type AddressBound = 'region' | 'area' | 'city' | 'settlement' | 'street' | 'house' | 'flat';

/** Restricts suggestions to a place (DaData `locations`); the fields given must all match. */
export interface AddressLocation {
  region?: string;
  city?: string;
  city_fias_id?: string;
  kladr_id?: string;
  [field: string]: string | undefined;
}

export interface AddressQuery {
  query: string;
  /** How many suggestions (DaData: default 10, at most 20). */
  count?: number;
  /** Drop the restricting parts (the city of `locations`) from each `value`. */
  restrictValue?: boolean;
  locations?: AddressLocation[];
  fromBound?: AddressBound;
  toBound?: AddressBound;
}

/** The part of DaData's `data` the shop reads; the real service sends many more fields. */
export interface AddressData {
  postal_code: string | null;
  country: string | null;
  region: string | null;
  region_type: string | null;
  region_with_type: string | null;
  city: string | null;
  city_type: string | null;
  city_with_type: string | null;
  city_fias_id: string | null;
  city_kladr_id: string | null;
  settlement_with_type: string | null;
  street: string | null;
  street_type: string | null;
  street_with_type: string | null;
  house: string | null;
  house_type: string | null;
  flat: string | null;
  fias_id: string | null;
  kladr_id: string | null;
  /** '1' region (Moscow, St Petersburg), '4' city, '7' street, '8' house. */
  fias_level: string | null;
  geo_lat: string | null;
  geo_lon: string | null;
}

export interface AddressSuggestion {
  /** What the shopper sees (without restricted parts when restrictValue). */
  value: string;
  /** The full address, with postal code and region. */
  unrestricted_value: string;
  data: AddressData;
}

export interface AddressSuggestionsResult {
  suggestions: AddressSuggestion[];
}

export interface AddressSuggestions {
  readonly kind: 'offline' | 'dadata';
  /** Never rejects: a failing provider gives no suggestions (and a warning in the log). */
  suggest(input: AddressQuery): Promise<AddressSuggestionsResult>;
}

/** A pino-like logger; only `warn` is used. */
export interface AddressLogger {
  warn(obj: object, msg: string): void;
}

export const DEFAULT_SUGGESTION_COUNT = 10;
export const MAX_SUGGESTION_COUNT = 20;
/** DaData refuses longer queries; both implementations answer them with nothing. */
export const MAX_QUERY_LENGTH = 300;

/** DaData's count rule: default 10, between 1 and 20. */
export function suggestionCount(count: number | undefined): number {
  if (count === undefined || !Number.isFinite(count)) return DEFAULT_SUGGESTION_COUNT;
  return Math.min(MAX_SUGGESTION_COUNT, Math.max(1, Math.trunc(count)));
}
