import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { ApiError } from '~/shared/contract';
import { CONTROL_CHARACTER_ERROR, findRefusedText } from '~/core/input-text';
import { AUTH_TEXT } from '~/core/auth';

// Every API route validates its params, query and body here (parseValue, which defineRoute in
// route.server.ts calls), with one error shape ({ error } in Russian, ApiError of the contract),
// one 404 body and one 401, whatever the route.

export const NOT_FOUND_BODY: ApiError = { error: 'Страница не найдена' };
export const SERVER_ERROR_TEXT = 'Произошла ошибка на сервере. Пожалуйста, попробуйте позже.';

const ru = z.locales.ru();

/** A query or body value as one string: a repeated key gives its last value. */
export const lastValue = (value: unknown): unknown => (Array.isArray(value) ? value[value.length - 1] : value);

/** A query parameter that is one string (the last of repeated ones), or absent. */
export const queryString = () => z.preprocess(lastValue, z.string().optional());

function validationError(error: z.ZodError): ApiError {
  const issue = error.issues[0];
  const where = issue && issue.path.length > 0 ? `«${issue.path.join('.')}»: ` : '';
  return { error: `Неверный запрос: ${where}${issue?.message ?? 'ошибка'}` };
}

/** A value (query, body, params) by the schema, or null after answering 400 with the one error shape. */
export function parseValue<T extends z.ZodType>(schema: T, value: unknown, reply: FastifyReply): z.infer<T> | null {
  // Control characters (a NUL PostgreSQL refuses) never get past the edge, in any field.
  const refused = findRefusedText(value);
  if (refused) {
    void reply
      .code(400)
      .send(
        validationError(
          new z.ZodError([{ code: 'custom', path: refused, message: CONTROL_CHARACTER_ERROR, input: undefined }]),
        ),
      );
    return null;
  }
  const parsed = schema.safeParse(value ?? {}, { error: ru.localeError });
  if (parsed.success) return parsed.data;
  void reply.code(400).send(validationError(parsed.error));
  return null;
}

export function notFound(reply: FastifyReply): FastifyReply {
  return reply.code(404).send(NOT_FOUND_BODY);
}

export const SESSION_GONE_BODY: ApiError = { error: AUTH_TEXT.sessionGone };

/**
 * The API's one 401: no live session for the request's token (`{ error: 'Войдите снова' }`, or
 * the route's own answer shape carrying that text), no staff key, a provider's bad signature.
 */
export function unauthorized(reply: FastifyReply, body: object = SESSION_GONE_BODY): FastifyReply {
  return reply.code(401).send(body);
}

/** What a staff-script action answers (api/route.server.ts actionRoute): `{ data, errors, warnings }`. */
export type ActionResult<T> = { data: T | null; errors: Record<string, string>; warnings: string[] };
