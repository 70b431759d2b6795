import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { NOT_FOUND_BODY } from './http.server';
import type { ApiError } from '~/shared/contract';

// Everything under the API prefix answers in the API's shape. The storefront's catch-all (`/*`)
// would otherwise take an unknown address or a method a route does not take (`DELETE
// /backend/catalog/`) and answer its HTML 404 page. The fallback below is more specific than
// that catch-all, so the router sends such requests here: 405 with Allow when the address exists
// for other methods, else 404, both as `{ error }`.

export const METHOD_NOT_ALLOWED_BODY: ApiError = { error: 'Метод не поддерживается' };

interface KnownRoute {
  pattern: RegExp;
  methods: Set<string>;
}

const escapeRegExp = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

/**
 * A find-my-way route address as a regular expression: `:name` (with an optional `(regex)`) is
 * one segment, `*` the rest; a trailing slash is optional (the server ignores it).
 */
function routePattern(url: string): RegExp {
  const source = url
    .replace(/\/+$/, '')
    .split(/(:[A-Za-z0-9_]+(?:\([^)]*\))?|\*)/)
    .map((part) => (part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : escapeRegExp(part)))
    .join('');
  return new RegExp(`^${source}/?$`);
}

/**
 * Call first in the API plugin (it watches the routes registered after it), then
 * `register()` once every route is in.
 */
export function apiFallback(app: FastifyInstance): { register: () => void } {
  const routes = new Map<string, KnownRoute>();
  app.addHook('onRoute', (route) => {
    if (route.handler === answer) return;
    const known = routes.get(route.url) ?? { pattern: routePattern(route.url), methods: new Set<string>() };
    for (const method of ([] as string[]).concat(route.method)) known.methods.add(method.toUpperCase());
    routes.set(route.url, known);
  });

  // Answered before the body is read: a refusal needs none, and a body the API cannot parse
  // must not turn a 404 into a 415.
  async function answer(req: FastifyRequest, reply: FastifyReply) {
    const q = req.url.indexOf('?');
    const pathname = q === -1 ? req.url : req.url.slice(0, q);
    const allowed = allowedAt(pathname);
    void reply.header('cache-control', 'no-store');
    if (allowed.length === 0) return reply.code(404).send(NOT_FOUND_BODY);
    return reply.code(405).header('allow', allowed.join(', ')).send(METHOD_NOT_ALLOWED_BODY);
  }

  /** The methods some route takes at this address, in a stable order; empty when none. */
  function allowedAt(pathname: string): string[] {
    const methods = new Set<string>();
    for (const { pattern, methods: taken } of routes.values())
      if (pattern.test(pathname)) for (const m of taken) methods.add(m);
    return [...methods].sort();
  }

  return {
    register() {
      const methods = app.supportedMethods as HTTPMethods[];
      const options = { onRequest: answer, handler: answer };
      app.route({ method: methods, url: '/*', exposeHeadRoute: false, ...options });
      // The bare prefix (`/backend`, `/backend/`) is no route either.
      app.route({ method: methods, url: '/', exposeHeadRoute: false, ...options });
    },
  };
}
