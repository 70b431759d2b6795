import type { z } from 'zod';
import type { Permission } from '~/core/staff-roles';
import { AdminError } from '~/shared/admin-contract';
import type { RouteDoc, RouteResponse } from '~/api/route.server';

// What the OpenAPI document (/backend/openapi.json) says of every admin route beyond its zod
// schemas: the admin tag, the permission it needs, the Idempotency-Key header of a change, and the
// answers every admin route can give. The routes are defined with api/route.server.ts defineRoute
// (through adminRead, adminChange in action.server.ts and the auth routes).

const error = (description: string): RouteResponse => ({ description, schema: AdminError });

/** The admin part of a route's definition: spread it into `defineRoute` with the route's own fields. */
export function adminDoc({
  permission,
  response,
  contentType,
  idempotencyKey,
}: {
  /** null: no session needed (login), or any logged-in role (me). */
  permission: Permission | null;
  response: z.ZodType;
  /** The success answer's media type when it is not JSON (a CSV export). */
  contentType?: string;
  idempotencyKey?: 'required' | 'optional';
}): Pick<RouteDoc, 'tags' | 'description' | 'bodyType' | 'parameters' | 'responses'> {
  return {
    tags: ['admin'],
    description: permission ? `Permission: \`${permission}\`` : 'No permission needed',
    bodyType: 'json',
    ...(idempotencyKey
      ? {
          parameters: [
            {
              name: 'Idempotency-Key',
              in: 'header',
              required: idempotencyKey === 'required',
              description:
                'A repeat with the same key gets the first answer (header Idempotent-Replayed: true); the key with another body answers 422',
              schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,200}$' },
            },
          ],
        }
      : {}),
    responses: {
      200: { description: 'Success', schema: response, ...(contentType ? { contentType } : {}) },
      400: error('Bad parameters'),
      401: error('No session (or it ended: idle 30 min, 12 h after login)'),
      403: error('The role lacks the permission, or a cross-site Origin'),
      ...(idempotencyKey ? { 422: error('Idempotency-Key reused with another request') } : {}),
    } as Record<number, RouteResponse>,
  };
}
