import type { z } from 'zod';
import { ApiError } from '~/shared/contract';
import { BAD_PARAMETERS, type RouteDoc } from '~/api/route.server';

// What the OpenAPI document says of every staff-script route (api/staff/): who may call it and the
// answers every one of them can give, beside the route's own answer.

export function staffDoc(
  response: z.ZodType,
  description: string,
): Pick<RouteDoc, 'tags' | 'description' | 'responses'> {
  return {
    tags: ['staff scripts'],
    description:
      'Staff only: `Authorization: Bearer STAFF_TOKEN` (the staff scripts, `npm run …`, on the running shop). Each successful change is in the audit log as the script that made it.',
    responses: {
      200: { description, schema: response },
      400: BAD_PARAMETERS,
      401: { description: 'No or a wrong staff key', schema: ApiError },
    },
  };
}
