import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { z } from 'zod';
import { lastValue, parseValue, type ActionResult } from '~/api/http.server';
import { ApiError } from '~/shared/contract';

// One route table: `defineRoute` registers a Fastify route that validates its params, query and
// body with zod, and records the same schemas for the OpenAPI document (api/openapi.ts
// `buildOpenApi`), so the document and the routes cannot drift apart. docs/architecture.md
// "Writing an API route" shows it in use.

export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteResponse {
  description: string;
  /** The answer's body (JSON by default; `z.string()` for a page or a script); absent for none (a redirect). */
  schema?: z.ZodType;
  /** Default 'application/json' when there is a schema. */
  contentType?: string;
  /** Bodies of an answer that comes in several types (a JSON list or an HTML page), by content type. */
  content?: Record<string, z.ZodType>;
  /** Response headers worth naming (Location of a redirect, Retry-After), with what they say. */
  headers?: Record<string, string>;
}

/**
 * How a request body is sent: a form (SPEC §7, the storefront's calls), JSON (the back office),
 * or another content type (a provider's webhook); a list when a route takes several.
 */
export type BodyType = 'form' | 'json' | `${string}/${string}`;

/** The storefront API's usual answers, for `responses`. */
export const BAD_PARAMETERS: RouteResponse = { description: 'Bad parameters', schema: ApiError };
export const NO_SESSION: RouteResponse = {
  description: 'No token, or its session ended (logged out, expired, forged)',
  schema: ApiError,
};
export const NOT_FOUND: RouteResponse = { description: 'Not found', schema: ApiError };

/** What OpenAPI says of a route; recorded by `defineRoute`, read by `openApiPaths`. */
export interface RouteDoc {
  method: Method;
  /** The full Fastify path (the plugins' prefixes included), `:name` for path parameters. */
  url: string;
  summary: string;
  description?: string;
  tags?: string[];
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** How the body is sent (a form unless the route says otherwise). */
  bodyType: BodyType | readonly BodyType[];
  /** More parameters as OpenAPI writes them (a header such as Idempotency-Key). */
  parameters?: Record<string, unknown>[];
  responses: Record<number, RouteResponse>;
}

export interface RouteInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
}

export type Parse = <T extends z.ZodType>(schema: T, value: unknown, reply: FastifyReply) => z.infer<T> | null;

export interface RouteDefinition<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> extends Omit<
  RouteDoc,
  'method' | 'url' | 'bodyType'
> {
  /** One method, or several served by one handler (each is documented). */
  method: Method | readonly Method[];
  /** The path inside the plugin (its prefix is added), `:name` for path parameters. */
  url: string;
  params?: P;
  query?: Q;
  body?: B;
  bodyType?: BodyType | readonly BodyType[];
  /** The body as the document describes it, when the parsed body is another shape (files). */
  docBody?: z.ZodType;
  /**
   * The error shape of a refused value: the storefront API's `{ error }` (default), the back
   * office's (`parseAdmin`), or a route's own answer (`refuseWith`).
   */
  parse?: Parse;
  preHandler?: RouteShorthandOptions['preHandler'];
  /** The largest body this route takes, bytes (Fastify's bodyLimit; the server's default without it). */
  bodyLimit?: number;
  /** Kept out of the OpenAPI document (a provider's stand-in page, an internal hook). */
  hidden?: boolean;
  handler: (input: RouteInput<z.infer<P>, z.infer<Q>, z.infer<B>>, req: FastifyRequest, reply: FastifyReply) => unknown;
}

const docs = new Map<string, RouteDoc>();

/**
 * Registers a route on `app` and records its description. The handler gets the parsed params,
 * query and body (each `{}` without a schema); a value its schema refuses has been answered 400.
 */
export function defineRoute<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
>(app: FastifyInstance, def: RouteDefinition<P, Q, B>): void {
  const methods = typeof def.method === 'string' ? [def.method] : [...def.method];
  const { method: _m, url: _u, parse: _p, preHandler, bodyLimit, hidden, handler, docBody, ...doc } = def;
  if (!hidden)
    for (const method of methods)
      recordRoute({
        ...doc,
        ...(docBody ? { body: docBody } : {}),
        method,
        url: `${app.prefix}${def.url}`,
        bodyType: def.bodyType ?? 'form',
      });
  const parse: Parse = def.parse ?? parseValue;
  app.route({
    method: methods,
    url: def.url,
    ...(preHandler ? { preHandler } : {}),
    ...(bodyLimit ? { bodyLimit } : {}),
    handler: async (req, reply) => {
      const params = def.params ? parse(def.params, req.params, reply) : {};
      if (params === null) return reply;
      const query = def.query ? parse(def.query, req.query, reply) : {};
      if (query === null) return reply;
      const body = def.body ? parse(def.body, req.body, reply) : {};
      if (body === null) return reply;
      return handler({ params, query, body } as RouteInput<z.infer<P>, z.infer<Q>, z.infer<B>>, req, reply);
    },
  });
}

/**
 * A `parse` that answers a value its schema refuses with the route's own status and body (a
 * provider's callback, a stand-in's form), as those routes answered before they had a schema.
 * Unlike the default it takes the value as it came (no control-character check, no `{}` for none).
 */
export function refuseWith(status: number, body: unknown, headers: Record<string, string> = {}): Parse {
  return (schema, value, reply) => {
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    void reply.code(status).headers(headers).send(body);
    return null;
  };
}

/** One action of an `actionRoute`: its body's schema (beside `action`) and what it does with the parsed body. */
export interface RouteAction {
  schema: z.ZodType;
  run: (input: never, req: FastifyRequest) => Promise<ActionResult<unknown>>;
}

/**
 * One `POST` endpoint for several changes of a resource: the body names an `action`, each action
 * has its own schema and handler; an unknown action answers 400 «Неизвестное действие», a body
 * its action's schema refuses 400 as parseValue does. Answers `{ data, errors, warnings }`. The
 * document describes the body as one of the actions' bodies, each with its `action`.
 */
export function actionRoute(
  app: FastifyInstance,
  def: Omit<RouteDefinition<z.ZodType, z.ZodType, z.ZodType>, 'method' | 'body' | 'parse' | 'handler' | 'query'> & {
    actions: Record<string, RouteAction>;
  },
): void {
  const { actions, ...doc } = def;
  const bodies: z.ZodType[] = Object.entries(actions).map(([name, { schema }]) =>
    schema instanceof z.ZodObject
      ? z.object({ action: z.literal(name) }).extend(schema.shape)
      : z.object({ action: z.literal(name) }).and(schema),
  );
  const body = z.union(bodies);
  const parse = ((_schema: z.ZodType, value: unknown, reply: FastifyReply) => {
    const name = lastValue(((value ?? {}) as Record<string, unknown>).action);
    if (typeof name !== 'string' || !Object.hasOwn(actions, name)) {
      void reply.code(400).send({ error: 'Неизвестное действие' } satisfies ApiError);
      return null;
    }
    const input = parseValue(actions[name]!.schema, value, reply);
    return input === null ? null : { name, input };
  }) as Parse;
  defineRoute(app, {
    ...doc,
    method: 'POST',
    body,
    parse,
    handler: ({ body: parsed }, req) => {
      const { name, input } = parsed as unknown as { name: string; input: unknown };
      return actions[name]!.run(input as never, req);
    },
  });
}

/** Records a route's description without registering it (a route Fastify serves another way). */
export function recordRoute(doc: RouteDoc): void {
  docs.set(`${doc.method} ${doc.url}`, doc);
}

/** Every recorded route (the same for every server in the process: routes are code). */
export function recordedRoutes(): RouteDoc[] {
  return [...docs.values()];
}

function json(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const out = z.toJSONSchema(schema, { target: 'openapi-3.0', unrepresentable: 'any', io }) as Record<string, unknown>;
  delete out.$schema;
  return out;
}

/** The object's fields (through pipes, preprocessors and optionals), or null for another shape. */
function objectShape(schema: z.ZodType): Record<string, z.ZodType> | null {
  if (schema instanceof z.ZodObject) return schema.shape as Record<string, z.ZodType>;
  const def = (
    schema as unknown as { _zod: { def: { type: string; in?: z.ZodType; out?: z.ZodType; innerType?: z.ZodType } } }
  )._zod.def;
  if (def.type === 'pipe') return (def.in && objectShape(def.in)) ?? (def.out && objectShape(def.out)) ?? null;
  if ((def.type === 'optional' || def.type === 'default') && def.innerType) return objectShape(def.innerType);
  return null;
}

function isOptional(schema: z.ZodType): boolean {
  return schema.safeParse(undefined).success;
}

/** OpenAPI path items of the recorded routes under `apiPrefix`, their addresses relative to it (the document's server). */
export function openApiPaths(apiPrefix: string): Record<string, Record<string, unknown>> {
  const base = apiPrefix.replace(/\/+$/, '');
  const paths: Record<string, Record<string, unknown>> = {};
  for (const doc of docs.values()) {
    if (base && !doc.url.startsWith(`${base}/`)) continue;
    const relative = base ? doc.url.slice(base.length) : doc.url;
    const path = relative.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, '{path}');
    paths[path] ??= {};
    paths[path][doc.method.toLowerCase()] = operation(doc, relative);
  }
  return paths;
}

function operation(doc: RouteDoc, relative: string): Record<string, unknown> {
  const parameters: Record<string, unknown>[] = [];
  const paramShape = doc.params ? objectShape(doc.params) : null;
  for (const name of relative.match(/:([A-Za-z0-9_]+)|\*$/g) ?? []) {
    const key = name === '*' ? 'path' : name.slice(1);
    const field = paramShape?.[name === '*' ? '*' : key];
    parameters.push({
      name: key,
      in: 'path',
      required: true,
      schema: field ? json(field, 'input') : { type: 'string' },
    });
  }
  const queryShape = doc.query ? objectShape(doc.query) : null;
  for (const [name, field] of Object.entries(queryShape ?? {})) {
    const schema = json(field, 'input');
    parameters.push({
      name,
      in: 'query',
      required: !isOptional(field),
      ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
      schema,
    });
  }
  parameters.push(...(doc.parameters ?? []));
  const body = doc.body;
  const bodyTypes = (typeof doc.bodyType === 'string' ? [doc.bodyType] : doc.bodyType).map((t) =>
    t === 'json' ? 'application/json' : t === 'form' ? 'application/x-www-form-urlencoded' : t,
  );
  return {
    ...(doc.tags ? { tags: doc.tags } : {}),
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(body
      ? {
          requestBody: {
            required: !isOptional(body),
            content: Object.fromEntries(bodyTypes.map((t) => [t, { schema: json(body, 'input') }])),
          },
        }
      : {}),
    responses: Object.fromEntries(
      Object.entries(doc.responses).map(([status, r]) => [
        status,
        {
          description: r.description,
          ...(r.headers
            ? {
                headers: Object.fromEntries(
                  Object.entries(r.headers).map(([name, description]) => [
                    name,
                    { description, schema: { type: 'string' } },
                  ]),
                ),
              }
            : {}),
          ...(r.schema || r.content
            ? {
                content: Object.fromEntries(
                  Object.entries({
                    ...(r.schema ? { [r.contentType ?? 'application/json']: r.schema } : {}),
                    ...r.content,
                  }).map(([type, schema]) => [type, { schema: json(schema, 'output') }]),
                ),
              }
            : {}),
        },
      ]),
    ),
  };
}
