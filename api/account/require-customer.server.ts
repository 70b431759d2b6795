import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { z } from 'zod';
import type { Database } from '~/db/client.server';
import { lastValue, unauthorized } from '~/api/http.server';
import { BAD_PARAMETERS, defineRoute, NO_SESSION, type RouteResponse } from '~/api/route.server';
import { sessionOfToken } from './session.server';

// Every POST route of a logged-in customer: the body (validated by the route's schema) and the
// customer of its `token`, or a 401 for a missing or dead token ({ error: 'Войдите снова' }, or
// the route's own answer shape carrying that text). The customer id comes from the session only;
// nothing in the request can name another customer. Answers are private, never cached.

export const tokenField = () => z.preprocess(lastValue, z.string().max(4000).optional()).describe('Session token');

export interface CustomerSession<B> {
  customerId: number;
  sessionId: string;
  body: B;
}

/** What a route answers with its 401 when its shape is not the API's plain `{ error }`. */
export interface NoSessionAnswer {
  body: object;
  schema: z.ZodType;
  description?: string;
}

/**
 * A `POST` customer route (defineRoute): its body by `body`, then the customer of the body's
 * token; a missing or dead token answers 401 (`noSession`'s body, else `{ error: 'Войдите
 * снова' }`) before `handler` runs. 400 and 401 are described here; `responses` names the
 * route's own answers.
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
    noSession?: NoSessionAnswer;
    handler: (session: CustomerSession<z.infer<B>>, req: FastifyRequest, reply: FastifyReply) => unknown;
  },
): void {
  const { handler, responses, noSession, ...rest } = def;
  const noSessionDoc: RouteResponse = noSession
    ? { description: noSession.description ?? NO_SESSION.description, schema: noSession.schema }
    : NO_SESSION;
  defineRoute(app, {
    ...rest,
    method: 'POST',
    responses: { 400: BAD_PARAMETERS, 401: noSessionDoc, ...responses },
    handler: async ({ body }, req, reply) => {
      void reply.header('cache-control', 'private, no-store');
      const session = await sessionOfToken({ db, secret, token: body.token });
      if (!session) return unauthorized(reply, noSession?.body);
      return handler({ customerId: session.customerId, sessionId: session.sessionId, body }, req, reply);
    },
  });
}
