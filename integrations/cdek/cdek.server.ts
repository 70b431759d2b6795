import { CdekError } from './cdek';
import type {
  CdekClient,
  CdekDeliveryPoint,
  CdekOrderRequest,
  CdekOrderState,
  TariffListItem,
  TariffRequest,
  TariffResult,
} from './cdek';

// The real CDEK API v2 client (INTEGRATIONS.md §2). OAuth client credentials give a bearer
// token, kept until shortly before it expires and fetched once for concurrent calls; a 401
// (a token revoked early) is retried once with a fresh one. Every failure (network, timeout,
// HTTP status, an `errors` answer, a malformed answer) becomes a CdekError whose message is
// fit for the log: it never carries the client secret or the token.

export const CDEK_DEFAULT_BASE_URL = 'https://api.cdek.ru/v2';
export const CDEK_TEST_BASE_URL = 'https://api.edu.cdek.ru/v2';
export const CDEK_DEFAULT_TIMEOUT_MS = 10_000;
/** Renew this long before `expires_in` runs out, so a token never expires in flight. */
const TOKEN_MARGIN_MS = 60_000;

export interface CdekLogger {
  warn(obj: object, msg: string): void;
}

export interface CdekOptions {
  clientId: string;
  clientSecret: string;
  /** Tests point this at a local fake. */
  baseUrl?: string;
  timeoutMs?: number;
  log?: CdekLogger;
  /** Injected for tests; defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Injected for tests (token expiry); defaults to Date.now. */
  now?: () => number;
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown, fallback = ''): string =>
  typeof v === 'string' ? v : typeof v === 'number' ? String(v) : fallback;
const num = (v: unknown, fallback = 0): number =>
  typeof v === 'number' && Number.isFinite(v)
    ? v
    : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))
      ? Number(v)
      : fallback;
const bool = (v: unknown): boolean => v === true || v === 'true';

/** CDEK's `errors: [{code, message}]` (top level or in `requests[]`) as 'code: message' lines. */
function errorsOf(body: unknown): string[] {
  if (!isObject(body)) return [];
  const lists: unknown[] = [body.errors];
  if (Array.isArray(body.requests)) for (const r of body.requests) if (isObject(r)) lists.push(r.errors);
  const out: string[] = [];
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const e of list) {
      if (isObject(e)) out.push([str(e.code), str(e.message)].filter(Boolean).join(': ') || 'error');
      else if (typeof e === 'string') out.push(e);
    }
  }
  return out;
}

function mapPoint(raw: unknown): CdekDeliveryPoint | null {
  if (!isObject(raw) || typeof raw.code !== 'string' || raw.code === '') return null;
  const loc = isObject(raw.location) ? raw.location : {};
  const dimensions = Array.isArray(raw.dimensions)
    ? raw.dimensions.filter(isObject).map((d) => ({ width: num(d.width), height: num(d.height), depth: num(d.depth) }))
    : null;
  const point: CdekDeliveryPoint = {
    code: raw.code,
    name: str(raw.name),
    type: raw.type === 'POSTAMAT' ? 'POSTAMAT' : 'PVZ',
    location: {
      country_code: str(loc.country_code),
      region: str(loc.region),
      city_code: num(loc.city_code),
      city: str(loc.city),
      postal_code: str(loc.postal_code),
      longitude: num(loc.longitude),
      latitude: num(loc.latitude),
      address: str(loc.address),
      address_full: str(loc.address_full, str(loc.address)),
    },
    address_comment: str(raw.address_comment),
    nearest_metro_station:
      typeof raw.nearest_metro_station === 'string' && raw.nearest_metro_station !== ''
        ? raw.nearest_metro_station
        : null,
    work_time: str(raw.work_time),
    work_time_list: Array.isArray(raw.work_time_list)
      ? raw.work_time_list.filter(isObject).map((w) => ({ day: num(w.day), time: str(w.time) }))
      : [],
    phones: Array.isArray(raw.phones) ? raw.phones.filter(isObject).map((p) => ({ number: str(p.number) })) : [],
    note: str(raw.note),
    is_dressing_room: bool(raw.is_dressing_room),
    take_only: bool(raw.take_only),
    have_cashless: bool(raw.have_cashless),
    allowed_cod: bool(raw.allowed_cod),
    weight_max: num(raw.weight_max),
  };
  if (dimensions && dimensions.length > 0) point.dimensions = dimensions;
  return point;
}

function mapTariffItem(raw: unknown): TariffListItem | null {
  if (!isObject(raw) || typeof raw.tariff_code !== 'number') return null;
  return {
    tariff_code: raw.tariff_code,
    tariff_name: str(raw.tariff_name),
    delivery_mode: num(raw.delivery_mode),
    delivery_sum: num(raw.delivery_sum),
    period_min: num(raw.period_min),
    period_max: num(raw.period_max),
  };
}

function orderState(body: unknown, fallbackUuid: string): CdekOrderState {
  const entity = isObject(body) && isObject(body.entity) ? body.entity : {};
  const requests = isObject(body) && Array.isArray(body.requests) ? body.requests.filter(isObject) : [];
  const create = requests.find((r) => r.type === 'CREATE') ?? requests[0];
  const number = entity.cdek_number;
  return {
    uuid: str(entity.uuid, fallbackUuid),
    state: str(create?.state, 'ACCEPTED'),
    cdek_number: (typeof number === 'string' && number !== '') || typeof number === 'number' ? String(number) : null,
    errors: errorsOf(body),
  };
}

export function createCdekClient(options: CdekOptions): CdekClient {
  if (!options.clientId || !options.clientSecret) throw new Error('CDEK client needs a client id and secret');
  const { clientId, clientSecret } = options;
  const base = (options.baseUrl ?? CDEK_DEFAULT_BASE_URL).replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? CDEK_DEFAULT_TIMEOUT_MS;
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  const log = options.log;

  let token: { value: string; until: number } | null = null;
  let pending: Promise<string> | null = null;

  /** Removes the secrets from text that may end up in a log. */
  const scrub = (text: string): string => {
    let out = text.split(clientSecret).join('***');
    if (token) out = out.split(token.value).join('***');
    return out;
  };

  const fail = (message: string, status: number | null = null): CdekError => {
    const error = new CdekError(scrub(message), status);
    log?.warn({ cdek: { reason: error.message, status } }, 'CDEK call failed');
    return error;
  };

  /** One HTTP exchange: status and parsed JSON (null when the body is not JSON). */
  async function exchange(what: string, url: string, init: RequestInit): Promise<{ status: number; body: unknown }> {
    let response: Response;
    let text: string;
    try {
      response = await doFetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
      // Inside the try: the timeout also covers a body that stops half-way.
      text = await response.text();
    } catch (error) {
      const name = (error as { name?: unknown } | null)?.name;
      const timedOut = name === 'TimeoutError' || name === 'AbortError';
      throw fail(`${what}: ${timedOut ? `no answer within ${timeoutMs} ms` : 'could not reach CDEK'}`);
    }
    let body: unknown = null;
    try {
      body = text === '' ? null : JSON.parse(text);
    } catch {
      body = null;
    }
    return { status: response.status, body };
  }

  async function fetchToken(): Promise<string> {
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
    });
    const { status, body } = await exchange('POST /oauth/token', `${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
    });
    if (
      status < 200 ||
      status >= 300 ||
      !isObject(body) ||
      typeof body.access_token !== 'string' ||
      body.access_token === ''
    ) {
      // 401 here means wrong credentials: say so without repeating them.
      throw fail(
        `POST /oauth/token: HTTP ${status}${status === 401 ? ' (check CDEK_CLIENT_ID and CDEK_CLIENT_SECRET)' : ''}`,
        status,
      );
    }
    const lifetimeMs = Math.max(0, num(body.expires_in, 3600) * 1000 - TOKEN_MARGIN_MS);
    token = { value: body.access_token, until: now() + lifetimeMs };
    return token.value;
  }

  function accessToken(): Promise<string> {
    if (token && now() < token.until) return Promise.resolve(token.value);
    // Concurrent calls share one token request.
    pending ??= fetchToken().finally(() => {
      pending = null;
    });
    return pending;
  }

  async function call(
    method: 'GET' | 'POST',
    path: string,
    payload?: unknown,
  ): Promise<{ status: number; body: unknown }> {
    const what = `${method} ${path.split('?')[0]}`;
    const send = async (bearer: string) =>
      exchange(what, `${base}${path}`, {
        method,
        headers: {
          accept: 'application/json',
          authorization: `Bearer ${bearer}`,
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: payload === undefined ? undefined : JSON.stringify(payload),
      });
    let bearer = await accessToken();
    let result = await send(bearer);
    if (result.status === 401) {
      // The token was revoked or expired early: one fresh try.
      if (token?.value === bearer) token = null;
      bearer = await accessToken();
      result = await send(bearer);
    }
    if (result.status < 200 || result.status >= 300) {
      const errors = errorsOf(result.body);
      throw fail(
        `${what}: HTTP ${result.status}${errors.length > 0 ? ` (${errors.join('; ').slice(0, 300)})` : ''}`,
        result.status,
      );
    }
    return result;
  }

  return {
    kind: 'cdek',
    async deliveryPoints({ city_code, type }) {
      const query = new URLSearchParams({ city_code: String(city_code), type: type ?? 'ALL' });
      const { body } = await call('GET', `/deliverypoints?${query.toString()}`);
      if (!Array.isArray(body)) throw fail('GET /deliverypoints: the answer is not a list');
      return body.map(mapPoint).filter((p): p is CdekDeliveryPoint => p !== null);
    },
    async calculateTariff(request: TariffRequest): Promise<TariffResult> {
      const { status, body } = await call('POST', '/calculator/tariff', { type: 1, ...request });
      const errors = errorsOf(body);
      if (errors.length > 0) throw fail(`POST /calculator/tariff: ${errors.join('; ').slice(0, 300)}`, status);
      if (!isObject(body) || typeof body.delivery_sum !== 'number')
        throw fail('POST /calculator/tariff: the answer has no delivery_sum', status);
      return {
        delivery_sum: body.delivery_sum,
        period_min: num(body.period_min),
        period_max: num(body.period_max, num(body.period_min)),
        total_sum: num(body.total_sum, body.delivery_sum),
        currency: str(body.currency, 'RUB'),
      };
    },
    async tariffList(request) {
      const { status, body } = await call('POST', '/calculator/tarifflist', { type: 1, ...request });
      const errors = errorsOf(body);
      if (errors.length > 0) throw fail(`POST /calculator/tarifflist: ${errors.join('; ').slice(0, 300)}`, status);
      if (!isObject(body) || !Array.isArray(body.tariff_codes))
        throw fail('POST /calculator/tarifflist: the answer has no tariff_codes', status);
      return body.tariff_codes.map(mapTariffItem).filter((t): t is TariffListItem => t !== null);
    },
    async createOrder(request: CdekOrderRequest) {
      const { status, body } = await call('POST', '/orders', request);
      const state = orderState(body, '');
      if (state.uuid === '') throw fail(`POST /orders: HTTP ${status} without entity.uuid`, status);
      return state;
    },
    async getOrder(uuid: string) {
      if (!/^[0-9a-f-]{36}$/i.test(uuid)) throw new CdekError('not a CDEK order uuid', 400);
      const { body } = await call('GET', `/orders/${uuid}`);
      return orderState(body, uuid);
    },
  };
}
