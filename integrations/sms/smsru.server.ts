import { assertSendable, maskPhone, SmsError } from './sms';
import type { SmsErrorCode, SmsGateway, SmsLogger, SmsMessage } from './sms';

// The real SMS.ru client (INTEGRATIONS.md §4): POST <base>/sms/send, form-encoded
// `api_id, to, msg, json=1[, from, ttl, ip, test=1]`, JSON answer
// `{status, status_code, sms: {<number>: {status, status_code, sms_id | status_text}}, balance}`.

export const SMSRU_DEFAULT_BASE_URL = 'https://sms.ru';
export const SMSRU_DEFAULT_TIMEOUT_MS = 10_000;

export interface SmsRuOptions {
  apiId: string;
  /** An approved sender name; without it SMS.ru uses the account's default. */
  from?: string;
  /** Test mode (`test=1`): SMS.ru answers as usual but neither sends nor charges. */
  test?: boolean;
  /** Message lifetime in minutes (`ttl`), for codes that are useless later. */
  ttlMinutes?: number;
  /** Tests point this at a local fake. */
  baseUrl?: string;
  timeoutMs?: number;
  log?: SmsLogger;
  /** Injected for tests; defaults to the global fetch. */
  fetch?: typeof fetch;
}

interface SmsRuNumberResult {
  status?: unknown;
  status_code?: unknown;
  sms_id?: unknown;
  status_text?: unknown;
}

interface SmsRuAnswer {
  status?: unknown;
  status_code?: unknown;
  status_text?: unknown;
  sms?: unknown;
  balance?: unknown;
}

/** How each SMS.ru status code should be treated by the caller. */
function classify(providerCode: number | undefined): { code: SmsErrorCode; retryable: boolean } {
  switch (providerCode) {
    case 200:
      return { code: 'auth', retryable: false };
    case 201:
      return { code: 'no_funds', retryable: false };
    case 202:
      return { code: 'invalid_phone', retryable: false };
    case 207:
      return { code: 'phone_not_allowed', retryable: false };
    // From sms.ru's code list, beyond INTEGRATIONS.md: 220 "service temporarily unavailable",
    // 500 "server error, repeat the request".
    case 220:
    case 500:
      return { code: 'unavailable', retryable: true };
    default:
      return { code: 'rejected', retryable: false };
  }
}

function asCode(value: unknown): number | undefined {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) ? n : undefined;
}

export function createSmsRuClient(options: SmsRuOptions): SmsGateway {
  if (!options.apiId) throw new Error('SMS.ru client needs an api_id');
  const apiId = options.apiId;
  const endpoint = `${(options.baseUrl ?? SMSRU_DEFAULT_BASE_URL).replace(/\/+$/, '')}/sms/send`;
  const timeoutMs = options.timeoutMs ?? SMSRU_DEFAULT_TIMEOUT_MS;
  const doFetch = options.fetch ?? fetch;
  const log = options.log;

  // Whatever the provider or the network says goes through here before reaching an error
  // message or a log, so the api_id cannot leak even if echoed back.
  const redact = (text: string) => text.split(apiId).join('***');

  const fail = (
    reason: string,
    extra: { code: SmsErrorCode; retryable: boolean; providerCode?: number; httpStatus?: number; cause?: unknown },
  ) => new SmsError(redact(`SMS.ru: ${reason}`), extra);

  const refusal = (where: string, result: { status_code?: unknown; status_text?: unknown }, httpStatus: number) => {
    const providerCode = asCode(result.status_code);
    const text =
      typeof result.status_text === 'string' && result.status_text ? `: ${result.status_text.slice(0, 200)}` : '';
    return fail(`${where} (status_code ${providerCode ?? 'missing'}${text})`, {
      ...classify(providerCode),
      providerCode,
      httpStatus,
    });
  };

  return {
    kind: 'smsru',
    async send(message: SmsMessage) {
      assertSendable(message);
      const form = new URLSearchParams({ api_id: apiId, to: message.phone, msg: message.text, json: '1' });
      if (options.from) form.set('from', options.from);
      if (options.ttlMinutes !== undefined) form.set('ttl', String(options.ttlMinutes));
      if (message.ip) form.set('ip', message.ip);
      if (options.test) form.set('test', '1');

      let response: Response;
      try {
        // The api_id travels in the POST body, never in the URL, so it stays out of
        // proxy logs and out of fetch's own error messages.
        response = await doFetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8', accept: 'application/json' },
          body: form.toString(),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        const name = (error as { name?: unknown } | null)?.name;
        if (name === 'TimeoutError' || name === 'AbortError') {
          throw fail(`no answer within ${timeoutMs} ms`, { code: 'timeout', retryable: true });
        }
        throw fail('could not reach the service', { code: 'network', retryable: true, cause: error });
      }

      let raw: string;
      try {
        raw = await response.text();
      } catch (error) {
        const name = (error as { name?: unknown } | null)?.name;
        const timedOut = name === 'TimeoutError' || name === 'AbortError';
        throw fail(timedOut ? `no answer within ${timeoutMs} ms` : 'the answer was cut off', {
          code: timedOut ? 'timeout' : 'network',
          retryable: true,
          httpStatus: response.status,
        });
      }

      if (!response.ok) {
        const retryable = response.status >= 500 || response.status === 429;
        throw fail(`HTTP ${response.status}`, {
          code: retryable ? 'unavailable' : 'rejected',
          retryable,
          httpStatus: response.status,
        });
      }

      let answer: SmsRuAnswer;
      try {
        const parsed: unknown = JSON.parse(raw);
        if (typeof parsed !== 'object' || parsed === null) throw new Error('not an object');
        answer = parsed as SmsRuAnswer;
      } catch {
        // A 200 we cannot read may still mean "sent": do not invite a duplicate.
        throw fail('the answer is not JSON', { code: 'bad_response', retryable: false, httpStatus: response.status });
      }

      if (answer.status !== 'OK') throw refusal('request refused', answer, response.status);

      const perNumber =
        typeof answer.sms === 'object' && answer.sms !== null ? (answer.sms as Record<string, unknown>) : {};
      const entries = Object.values(perNumber);
      // SMS.ru keys results by the number as it understood it; with one recipient, the one
      // entry is ours even if SMS.ru rewrote the number.
      const result = (perNumber[message.phone] ?? (entries.length === 1 ? entries[0] : undefined)) as
        SmsRuNumberResult | undefined;
      if (typeof result !== 'object' || result === null) {
        throw fail('the answer has no result for the number', {
          code: 'bad_response',
          retryable: false,
          httpStatus: response.status,
        });
      }
      if (result.status !== 'OK') throw refusal('message refused', result, response.status);
      if ((typeof result.sms_id !== 'string' && typeof result.sms_id !== 'number') || result.sms_id === '') {
        throw fail('the answer has no sms_id', { code: 'bad_response', retryable: false, httpStatus: response.status });
      }

      const id = String(result.sms_id);
      // Never the text: it usually is a login code.
      log?.info(
        {
          sms: {
            provider: 'smsru',
            id,
            phone: maskPhone(message.phone),
            tag: message.tag ?? null,
            test: Boolean(options.test),
          },
          balance: typeof answer.balance === 'number' ? answer.balance : undefined,
        },
        'SMS sent via SMS.ru',
      );
      return { id };
    },
  };
}
