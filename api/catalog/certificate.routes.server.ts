import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Database } from '~/db/client.server';
import { CERTIFICATE_TEXT, formatCertificateCode } from '~/core/gift-certificates';
import { kopecksToRoubles } from '~/core/money';
import { moscowNow } from '~/core/working-days';
import { CertificateCheckResponse } from '~/shared/contract';
import { checkCertificate } from '~/models/certificate-check.server';
import { lastValue } from '~/api/http.server';
import { BAD_PARAMETERS, defineRoute } from '~/api/route.server';
import { sessionOfToken } from '~/api/account/session.server';

// `POST /api/catalog/check_certificate.php` (content/pages/podarochnye-sertifikaty.md): the balance
// and validity of a gift certificate by its number. What the shopper can fix answers 200 with
// `success: false` and the text to show; too many unknown numbers (models/certificate-check.server.ts)
// answer 429. With a token, the customer's own daily limit counts as well.

const CheckBody = z.object({
  code: z
    .preprocess(lastValue, z.string().max(10_000).optional())
    .describe('The 16 digits (spaces and hyphens allowed), e.g. 1234 5678 9012 3452'),
  token: z.preprocess(lastValue, z.string().max(4000).optional()).describe('Session token (jwt_token), optional'),
});

export async function certificateRoutes(
  app: FastifyInstance,
  { db, authSecret }: { db: Database; authSecret: string },
): Promise<void> {
  defineRoute(app, {
    method: 'POST',
    url: '/api/catalog/check_certificate.php',
    summary: 'The balance of a gift certificate by its number',
    description:
      'A number of the wrong shape or check digit, an unknown, expired or spent certificate answer 200 with `success: false` and the text to show. Each unknown well-formed number counts against 10 an hour per IP and 30 a day per customer; beyond either, every check answers 429, a right number too.',
    body: CheckBody,
    responses: {
      200: {
        description: 'The balance (roubles), the number in groups and the last day it is valid; or the error',
        schema: CertificateCheckResponse,
      },
      400: BAD_PARAMETERS,
      429: { description: 'Too many unknown numbers from this IP or customer', schema: CertificateCheckResponse },
    },
    handler: ({ body }, req, reply) => check(body, req, reply),
  });

  async function check(body: z.infer<typeof CheckBody>, req: FastifyRequest, reply: FastifyReply) {
    reply.header('cache-control', 'private, no-store');
    const session = body.token ? await sessionOfToken({ db, secret: authSecret, token: body.token }) : null;
    const now = new Date();
    const result = await checkCertificate({
      db,
      input: body.code ?? '',
      ip: req.ip,
      customerId: session?.customerId ?? null,
      now,
    });
    if (!result.ok) {
      if (result.reason === 'rate_limited') {
        req.log.warn(
          { ip: req.ip, customerId: session?.customerId ?? null },
          'certificate check: too many unknown numbers',
        );
        return reply.code(429).send({ success: false, error: result.error } satisfies CertificateCheckResponse);
      }
      return { success: false, error: result.error } satisfies CertificateCheckResponse;
    }
    return {
      success: true,
      code: formatCertificateCode(result.code),
      balance: kopecksToRoubles(result.balanceKopecks),
      expires: moscowNow(result.expiresAt).date,
      text: CERTIFICATE_TEXT.balance(result.balanceKopecks, result.expiresAt),
    } satisfies CertificateCheckResponse;
  }
}
