import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Database } from '~/db/client.server';
import { lastValue, parseBody, unauthorized } from '~/api/http.server';
import { sessionOfToken } from './session.server';

// The account paths after login: the body (validated by the route's schema) and the customer
// of its `token`, or a 401 { error: 'Войдите снова' } for a missing or dead token. The customer
// id comes from the session only; nothing in the request can name another customer.

export const tokenField = () => z.preprocess(lastValue, z.string().max(4000).optional());

export async function requireCustomer<S extends z.ZodType<{ token?: string | undefined }>>(
  { db, secret }: { db: Database; secret: string },
  schema: S,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<{ customerId: number; sessionId: string; body: z.infer<S> } | null> {
  const body = parseBody(schema, req, reply);
  if (!body) return null;
  const session = await sessionOfToken({ db, secret, token: body.token });
  if (!session) {
    void unauthorized(reply);
    return null;
  }
  return { customerId: session.customerId, sessionId: session.sessionId, body };
}
