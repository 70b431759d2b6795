import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '~/db/client.server';
import { CERTIFICATE_TEXT, formatCertificateCode } from '~/core/gift-certificates';
import { kopecksToRoubles } from '~/core/money';
import { moscowNow } from '~/core/working-days';
import type { CertificateCheckResponse } from '~/shared/contract';
import { checkCertificate } from '~/models/certificate-check.server';
import { lastValue, parseBody } from '~/api/http.server';
import { sessionOfToken } from '~/api/account/session.server';

// `POST /api/catalog/check_certificate.php` (content/pages/podarochnye-sertifikaty.md): the balance
// and validity of a gift certificate by its number. What the shopper can fix answers 200 with
// `success: false` and the text to show; too many unknown numbers (models/certificate-check.server.ts)
// answer 429. With a token, the customer's own daily limit counts as well.

const CheckBody = z.object({
  code: z.preprocess(lastValue, z.string().max(10_000).optional()),
  token: z.preprocess(lastValue, z.string().max(4000).optional()),
});

export async function certificateRoutes(
  app: FastifyInstance,
  { db, authSecret }: { db: Database; authSecret: string },
): Promise<void> {
  app.post('/api/catalog/check_certificate.php', async (req, reply) => {
    const body = parseBody(CheckBody, req, reply);
    if (!body) return reply;
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
  });
}
