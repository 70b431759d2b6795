import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '~/db/client.server';
import type { AddressQuery, AddressSuggestions } from '~/integrations/dadata/index.server';
import { AddressSuggestionsResponse, ApiError } from '~/shared/contract';
import { hitRateLimit } from '~/models/rate-limit.server';
import { lastValue } from '~/api/http.server';
import { BAD_PARAMETERS, defineRoute } from '~/api/route.server';

// SPEC §7 `POST /api/dadata/`: the address-suggestion proxy (DaData or its offline stand-in),
// so the provider's key stays on the server. Form fields: `query`, `type`, `restrict_value`
// ('true' drops the restricting city from each value), optional `city` (restricts to it).

/**
 * `type` → DaData bounds (INTEGRATIONS.md §3):
 * - 'address' (the default): the whole address, city to house, in one field;
 * - 'city': cities and settlements only (from_bound city, to_bound settlement);
 * - 'street': streets only (from_bound street, to_bound street), within `city` when given.
 */
const BOUNDS = {
  address: {},
  city: { fromBound: 'city', toBound: 'settlement' },
  street: { fromBound: 'street', toBound: 'street' },
} as const satisfies Record<string, Pick<AddressQuery, 'fromBound' | 'toBound'>>;

/** Longer queries are not addresses: answered with nothing, without asking the provider. */
export const MAX_ADDRESS_QUERY = 200;
/** Calls a minute per IP that reach the provider (DaData bills and limits by the call). */
export const SUGGESTIONS_PER_MINUTE = 120;
export const TOO_MANY_SUGGESTIONS = 'Слишком много запросов подсказок. Попробуйте через минуту.';

const text = () => z.preprocess(lastValue, z.string().optional());

const SuggestBody = z.object({
  query: text().describe(`What was typed (a blank one or one over ${MAX_ADDRESS_QUERY} characters: no suggestions)`),
  type: z
    .preprocess(
      (v) => {
        const s = lastValue(v);
        return s === undefined || s === '' ? 'address' : s;
      },
      z.enum(['address', 'city', 'street']),
    )
    .describe("'address' (city to house, the default), 'city' (cities and settlements) or 'street' (within city)"),
  restrict_value: text().describe("'true' drops the city given from each value"),
  city: z.preprocess(lastValue, z.string().trim().max(100).optional()).describe('Restrict to this city'),
});

const EMPTY: AddressSuggestionsResponse = { suggestions: [] };

export async function dadataRoutes(
  app: FastifyInstance,
  { db, suggestions, now = () => new Date() }: { db: Database; suggestions: AddressSuggestions; now?: () => Date },
): Promise<void> {
  defineRoute(app, {
    method: 'POST',
    url: '/api/dadata/',
    summary: 'Address suggestions while typing (a proxy of DaData, or its offline stand-in)',
    description: `More than ${SUGGESTIONS_PER_MINUTE} calls a minute from one IP answer 429.`,
    body: SuggestBody,
    responses: {
      200: {
        description: 'Suggestions, best first (none when the provider fails)',
        schema: AddressSuggestionsResponse,
      },
      400: BAD_PARAMETERS,
      429: {
        description: 'Too many calls from this IP: try in a minute',
        schema: ApiError,
        headers: { 'Retry-After': 'Seconds: 60' },
      },
    },
    handler: async ({ body }, req, reply) => {
      reply.header('cache-control', 'no-store');
      const query = (body.query ?? '').trim();
      if (query === '' || query.length > MAX_ADDRESS_QUERY) return EMPTY;

      const allowed = await hitRateLimit({
        db,
        key: `dadata:ip:${req.ip}`,
        windowSeconds: 60,
        limit: SUGGESTIONS_PER_MINUTE,
        now: now(),
      });
      if (!allowed)
        return reply
          .code(429)
          .header('retry-after', '60')
          .send({ error: TOO_MANY_SUGGESTIONS } satisfies ApiError);

      const restrictValue = body.restrict_value === 'true' || body.restrict_value === '1';
      const result = await suggestions
        .suggest({
          query,
          restrictValue,
          locations: body.city ? [{ city: body.city }] : undefined,
          ...BOUNDS[body.type],
        })
        .catch((err: unknown) => {
          // The interface promises never to reject; should one still, the shopper just types on.
          req.log.warn({ err }, 'address suggestions failed');
          return EMPTY;
        });
      return {
        suggestions: result.suggestions.map((s) => ({
          value: s.value,
          unrestricted_value: s.unrestricted_value,
          data: s.data,
        })),
      } satisfies AddressSuggestionsResponse;
    },
  });
}
