import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { z } from 'zod';
import type { Database } from '~/db/client.server';
import { lastValue, unauthorized } from '~/api/http.server';
import { BAD_PARAMETERS, defineRoute, NO_SESSION, type RouteResponse } from '~/api/route.server';
import { sessionOfToken } from './session.server';

// The account paths after login: the body (validated by the route's schema) and the customer
// of its `token`, or a 401 { error: 'Войдите снова' } for a missing or dead token. The customer
// id comes from the session only; nothing in the request can name another customer.

export const tokenField = () => z.preprocess(lastValue, z.string().max(4000).optional()).describe('Session token');

export interface CustomerSession<B> {
  customerId: number;
  sessionId: string;
  body: B;
}

/**
 * A `POST` account route (defineRoute): its form body by `body`, then the customer of the body's
 * token; a missing or dead token answers 401 before `handler` runs. 400 and 401 are described
 * here; `responses` names the route's own answers.
 */
export function customerRoute<B extends z.ZodType<{ token?: string | undefined }>>(
  app: FastifyInstance,
  { db, secret }: { db: Database; secret: string },
  def: {
    url: string;
    summary: string;
    description?: string;
    body: B;
    bodyType?: 'form' | 'json' | readonly ('form' | 'json')[];
    responses: Record<number, RouteResponse>;
    preHandler?: RouteShorthandOptions['preHandler'];
    bodyLimit?: number;
    handler: (session: CustomerSession<z.infer<B>>, req: FastifyRequest, reply: FastifyReply) => unknown;
  },
): void {
  const { handler, responses, ...rest } = def;
  defineRoute(app, {
    ...rest,
    method: 'POST',
    responses: { 400: BAD_PARAMETERS, 401: NO_SESSION, ...responses },
    handler: async ({ body }, req, reply) => {
      const session = await sessionOfToken({ db, secret, token: body.token });
      if (!session) return unauthorized(reply);
      return handler({ customerId: session.customerId, sessionId: session.sessionId, body }, req, reply);
    },
  });
}
