import { z } from 'zod';
import type { Permission } from '~/core/staff-roles';
import { AdminError } from '~/shared/admin-contract';

// The admin API's part of the OpenAPI document (/backend/openapi.json): each admin route records
// its description as it registers (api/admin/action.server.ts, auth.routes.server.ts), from the
// same zod schemas that validate it, so the document and the routes cannot drift apart.

export interface AdminRouteDoc {
  method: 'GET' | 'POST' | 'PATCH';
  url: string;
  summary: string;
  /** null: no session needed (login), or any logged-in role (me). */
  permission: Permission | null;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response: z.ZodType;
  idempotencyKey?: 'required' | 'optional';
}

const docs = new Map<string, AdminRouteDoc>();

/** Records a route (`prefix`: the plugin's, the API prefix included); the same for every server in the process. */
export function recordAdminDoc(prefix: string, doc: AdminRouteDoc): void {
  const url = `${prefix}${doc.url}`;
  docs.set(`${doc.method} ${url}`, { ...doc, url });
}

function json(schema: z.ZodType, io: 'input' | 'output' = 'output'): unknown {
  return z.toJSONSchema(schema, { target: 'openapi-3.0', unrepresentable: 'any', io });
}
const jsonBody = (description: string, schema: z.ZodType, io: 'input' | 'output' = 'output') => ({
  description,
  content: { 'application/json': { schema: json(schema, io) } },
});

/** OpenAPI path items of the admin routes, their addresses relative to `apiPrefix` (the document's server). */
export function adminOpenApiPaths(apiPrefix: string): Record<string, Record<string, unknown>> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const doc of docs.values()) {
    const base = apiPrefix.replace(/\/+$/, '');
    const relative = base && doc.url.startsWith(base) ? doc.url.slice(base.length) : doc.url;
    const path = relative.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const parameters: unknown[] = [];
    for (const name of relative.match(/:([A-Za-z0-9_]+)/g) ?? [])
      parameters.push({ name: name.slice(1), in: 'path', required: true, schema: { type: 'integer' } });
    if (doc.query instanceof z.ZodObject) {
      for (const [name, field] of Object.entries(doc.query.shape as Record<string, z.ZodType>)) {
        parameters.push({ name, in: 'query', required: false, schema: json(field, 'input') });
      }
    }
    if (doc.idempotencyKey)
      parameters.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: doc.idempotencyKey === 'required',
        description: 'A repeat with the same key gets the first answer (header Idempotent-Replayed: true); the key with another body answers 422',
        schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,200}$' },
      });
    paths[path] ??= {};
    paths[path][doc.method.toLowerCase()] = {
      tags: ['admin'],
      summary: doc.summary,
      description: doc.permission ? `Permission: \`${doc.permission}\`` : 'No permission needed',
      ...(parameters.length ? { parameters } : {}),
      ...(doc.body ? { requestBody: { required: true, content: { 'application/json': { schema: json(doc.body, 'input') } } } } : {}),
      responses: {
        200: jsonBody('Success', doc.response),
        400: jsonBody('Bad parameters', AdminError),
        401: jsonBody('No session (or it ended: idle 30 min, 12 h after login)', AdminError),
        403: jsonBody('The role lacks the permission, or a cross-site Origin', AdminError),
        ...(doc.idempotencyKey ? { 422: jsonBody('Idempotency-Key reused with another request', AdminError) } : {}),
      },
    };
  }
  return paths;
}
