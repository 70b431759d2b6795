import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '~/db/client.server';
import type { MailSender } from '~/integrations/mail/mail';
import { EMAIL_MAX_LENGTH, NEWSLETTER_IP_LIMIT, NEWSLETTER_TEXT, NEWSLETTER_WELCOME_TAG, newsletterWelcomeMail } from '~/core/newsletter';
import type { NewsletterResponse } from '~/shared/contract';
import { subscribe } from '~/models/newsletter.server';
import { hitRateLimit } from '~/models/rate-limit.server';
import { lastValue, parseBody } from '~/api/http.server';

// SPEC §7 `POST /api/personal/subscribe_form.php` (the footer's newsletter form). As with the
// basket's guest forms, what the shopper can fix answers 200 with the text to show
// (`{ error }`); only a request no form sends (not a string) is a 400.

const SubscribeBody = z.object({ email: z.preprocess(lastValue, z.string().max(10_000).optional()) });

const Email = z.string().trim().max(EMAIL_MAX_LENGTH).pipe(z.email());

export async function newsletterRoutes(app: FastifyInstance, { db, mail, siteUrl }: { db: Database; mail: MailSender; siteUrl: string }): Promise<void> {
  app.post('/api/personal/subscribe_form.php', async (req, reply) => {
    const body = parseBody(SubscribeBody, req, reply);
    if (!body) return reply;
    reply.header('cache-control', 'private, no-store');
    const email = Email.safeParse(body.email ?? '');
    if (!email.success) return { error: NEWSLETTER_TEXT.badEmail } satisfies NewsletterResponse;

    // Every well-formed try counts, repeats too: each may send a letter or tell whether an
    // address is subscribed.
    if (!(await hitRateLimit({ db, key: `newsletter:ip:${req.ip}`, ...NEWSLETTER_IP_LIMIT }))) {
      req.log.warn({ ip: req.ip }, 'newsletter: too many subscriptions from one address');
      return { error: NEWSLETTER_TEXT.tooMany } satisfies NewsletterResponse;
    }

    const address = email.data.toLowerCase();
    if ((await subscribe({ db, email: address })) === 'already') return { message: NEWSLETTER_TEXT.already } satisfies NewsletterResponse;

    // The subscription stands even if the letter fails: it is a courtesy, and a retry would
    // only hear "already subscribed".
    try {
      await mail.send({ to: address, tag: NEWSLETTER_WELCOME_TAG, ...newsletterWelcomeMail({ siteUrl }) });
    } catch (err) {
      // The kind of failure, not the message: an SMTP reply may quote the shopper's address.
      const { name, code, retryable, responseCode } = err as { name?: string; code?: string; retryable?: boolean; responseCode?: number };
      req.log.error({ mailError: { name, code, retryable, responseCode } }, 'newsletter: confirmation letter not sent');
    }
    return { message: NEWSLETTER_TEXT.thanks } satisfies NewsletterResponse;
  });
}
