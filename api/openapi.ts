import { openApiPaths } from '~/api/route.server';

// The published description of the product API (/backend/openapi.json): every route is defined
// with api/route.server.ts defineRoute and described from the zod schemas it validates with (the
// storefront's types come from the same schemas, shared/contract.ts), so the routes, the document
// and the storefront cannot drift apart. tests/api/openapi.test.ts checks that every route is in it.

export function buildOpenApi(serverUrl: string): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: {
      title: 'Vitrina product API',
      version: '1.0.0',
      description:
        'The contract between the Vitrina storefront and its backend (SPEC §7), the back office (tag admin), the staff scripts, the payment providers’ callbacks and the offline stand-ins. Paths are relative to the API base. Prices are roubles with at most two decimals; the back office speaks kopecks.',
    },
    servers: [{ url: serverUrl }],
    paths: openApiPaths(serverUrl),
  };
}
