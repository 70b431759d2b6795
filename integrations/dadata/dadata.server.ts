import { MAX_QUERY_LENGTH, suggestionCount } from './dadata';
import type { AddressData, AddressLogger, AddressQuery, AddressSuggestion, AddressSuggestions } from './dadata';

// The real DaData client (INTEGRATIONS.md §3): POST <base>/suggestions/api/4_1/rs/suggest/address,
// JSON `{query, count, locations, restrict_value, from_bound: {value}, to_bound: {value}}` with
// `Authorization: Token <key>` → `{suggestions: [{value, unrestricted_value, data}]}`. Suggestions
// are a convenience: an error, a refusal (403 over quota) or a timeout gives none and a warning
// in the log, never an error for the shopper. Node's fetch keeps connections alive, which keeps
// us under DaData's limit of 60 new connections a minute.

export const DADATA_DEFAULT_BASE_URL = 'https://suggestions.dadata.ru';
export const DADATA_SUGGEST_PATH = '/suggestions/api/4_1/rs/suggest/address';
/** The shopper is typing: a late answer is worth nothing. */
export const DADATA_DEFAULT_TIMEOUT_MS = 3_000;

export interface DadataOptions {
  apiKey: string;
  /** Tests point this at a local fake. */
  baseUrl?: string;
  timeoutMs?: number;
  log?: AddressLogger;
  /** Injected for tests; defaults to the global fetch. */
  fetch?: typeof fetch;
}

const DATA_FIELDS: ReadonlyArray<keyof AddressData> = [
  'postal_code',
  'country',
  'region',
  'region_type',
  'region_with_type',
  'city',
  'city_type',
  'city_with_type',
  'city_fias_id',
  'city_kladr_id',
  'settlement_with_type',
  'street',
  'street_type',
  'street_with_type',
  'house',
  'house_type',
  'flat',
  'fias_id',
  'kladr_id',
  'fias_level',
  'geo_lat',
  'geo_lon',
];

/** The fields the shop reads, as strings or null, from whatever DaData sent. */
function pickData(raw: unknown): AddressData {
  const source = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const data = {} as AddressData;
  for (const field of DATA_FIELDS) {
    const value = source[field];
    data[field] = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null;
  }
  return data;
}

function readSuggestions(raw: unknown): AddressSuggestion[] | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const list = (raw as { suggestions?: unknown }).suggestions;
  if (!Array.isArray(list)) return null;
  const suggestions: AddressSuggestion[] = [];
  for (const item of list) {
    if (typeof item !== 'object' || item === null) continue;
    const { value, unrestricted_value: unrestricted, data } = item as Record<string, unknown>;
    if (typeof value !== 'string' || value === '') continue;
    suggestions.push({
      value,
      unrestricted_value: typeof unrestricted === 'string' ? unrestricted : value,
      data: pickData(data),
    });
  }
  return suggestions;
}

export function createDadataClient(options: DadataOptions): AddressSuggestions {
  if (!options.apiKey) throw new Error('DaData client needs an API key');
  const apiKey = options.apiKey;
  const endpoint = `${(options.baseUrl ?? DADATA_DEFAULT_BASE_URL).replace(/\/+$/, '')}${DADATA_SUGGEST_PATH}`;
  const timeoutMs = options.timeoutMs ?? DADATA_DEFAULT_TIMEOUT_MS;
  const doFetch = options.fetch ?? fetch;
  const log = options.log;

  const none = (reason: string, extra: Record<string, unknown> = {}) => {
    // The query may be a shopper's home address: its length only.
    log?.warn({ dadata: { reason, ...extra } }, 'DaData suggestions unavailable');
    return { suggestions: [] };
  };

  return {
    kind: 'dadata',
    async suggest(input: AddressQuery) {
      const query = typeof input.query === 'string' ? input.query.trim() : '';
      if (query === '' || query.length > MAX_QUERY_LENGTH) return { suggestions: [] };
      const body: Record<string, unknown> = { query, count: suggestionCount(input.count) };
      if (input.locations && input.locations.length > 0) body.locations = input.locations;
      if (input.restrictValue) body.restrict_value = true;
      if (input.fromBound) body.from_bound = { value: input.fromBound };
      if (input.toBound) body.to_bound = { value: input.toBound };

      let response: Response;
      let raw: string;
      try {
        response = await doFetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Token ${apiKey}` },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        });
        // Read inside the try: the timeout also covers a body that stops half-way.
        raw = await response.text();
      } catch (error) {
        const name = (error as { name?: unknown } | null)?.name;
        const timedOut = name === 'TimeoutError' || name === 'AbortError';
        return none(timedOut ? `no answer within ${timeoutMs} ms` : 'could not reach the service', {
          queryLength: query.length,
        });
      }
      if (!response.ok) {
        // 403 with "Feature 'SUGGESTIONS' disabled" is the daily quota; 401 a bad key.
        return none(`HTTP ${response.status}`, {
          status: response.status,
          answer: raw.slice(0, 200).split(apiKey).join('***'),
        });
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch {
        parsed = null;
      }
      const suggestions = readSuggestions(parsed);
      if (!suggestions) return none('the answer has no suggestions list', { status: response.status });
      return { suggestions };
    },
  };
}
