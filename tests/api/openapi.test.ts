import { describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { setUpTestShop } from '~/tests/support/server';

// The published OpenAPI document (/backend/openapi.json): a valid OpenAPI 3.0 document, and every
// route the server registers under /backend is in it (api/route.server.ts defineRoute describes a
// route from the zod schemas it validates with; nothing is written by hand).

const shop = setUpTestShop();

type Paths = Record<string, Record<string, unknown>>;

async function openApi(): Promise<{ openapi: string; paths: Paths }> {
  const res = await fetch(`${shop.baseUrl}/backend/openapi.json`);
  expect(res.status).toBe(200);
  return (await res.json()) as { openapi: string; paths: Paths };
}

/** `METHOD path` of every route Fastify has, read from its route tree (full paths, trailing slashes folded). */
function registeredRoutes(): string[] {
  const routes: string[] = [];
  const stack: string[] = [];
  for (const line of shop.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^((?:│ {3}| {4})*)(?:├── |└── )(\S+)(?: \(([^)]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    const full = (stack[depth - 1] ?? '') + m[2]!;
    stack[depth] = full;
    for (const method of m[3]?.split(', ') ?? []) routes.push(`${method} ${full}`);
  }
  return routes;
}

/** One spelling for a path of the router and of the document: parameters as ':', no trailing slash. */
const normalise = (path: string) =>
  path
    .replace(/\{[^}]+\}|:[A-Za-z0-9_]+/g, ':')
    .replace(/\/?\*$/, '/:')
    .replace(/\/+$/, '');

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.0 document', async () => {
    const doc = await openApi();
    expect(doc.openapi).toMatch(/^3\.0\./);
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('describes every route registered under /backend', async () => {
    const doc = await openApi();
    const described = new Set(
      Object.entries(doc.paths).flatMap(([path, ops]) =>
        Object.keys(ops).map((m) => `${m.toUpperCase()} ${normalise(path)}`),
      ),
    );
    const missing = registeredRoutes()
      .filter((r) => r.includes(' /backend/'))
      .map((r) => {
        const [method, url] = r.split(' ') as [string, string];
        return `${method} ${normalise(url.slice('/backend'.length))}`;
      })
      // HEAD comes with every GET; the API's own catch-all (api/fallback.server.ts) answers 404/405.
      .filter((r) => !r.startsWith('HEAD ') && !r.endsWith(' /:'))
      .filter((r) => !described.has(r));
    expect([...new Set(missing)]).toEqual([]);
  });
});
