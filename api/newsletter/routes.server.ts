import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '~/db/client.server';
import type { MailSender } from '~/integrations/mail/mail';
import {
  EMAIL_MAX_LENGTH,
  isNewsletterToken,
  maskNewsletterEmail,
  NEWSLETTER_CONFIRM_TAG,
  NEWSLETTER_IP_LIMIT,
  NEWSLETTER_TEXT,
  NEWSLETTER_WELCOME_TAG,
  newsletterConfirmMail,
  newsletterWelcomeMail,
} from '~/core/newsletter';
import type { MailMessage } from '~/integrations/mail/mail';
import type { NewsletterLinkResponse, NewsletterResponse } from '~/shared/contract';
import { confirmSubscription, findByToken, subscribe, unsubscribe } from '~/models/newsletter.server';
import { hitRateLimit } from '~/models/rate-limit.server';
import { lastValue, parseBody } from '~/api/http.server';

// SPEC §7 `POST /api/personal/subscribe_form.php` (the footer's newsletter form). As with the
// basket's guest forms, what the shopper can fix answers 200 with the text to show
// (`{ error }`); only a request no form sends (not a string) is a 400.
// Double opt-in (issue #26): the form makes a pending subscription and sends the letter with the
// confirmation link; `POST /api/newsletter/{status,confirm,unsubscribe}` serve the pages those
// links open (app/routes/newsletter.tsx), with the token as the only credential.

const SubscribeBody = z.object({ email: z.preprocess(lastValue, z.string().max(10_000).optional()) });

const Email = z.string().trim().max(EMAIL_MAX_LENGTH).pipe(z.email());

const LinkBody = z.object({ token: z.preprocess(lastValue, z.string().max(200).optional()) });

type Log = { error(obj: object, msg: string): void };

/** Sends a letter; a failure is logged by its kind, not its message (an SMTP reply may quote the address). */
async function sendLetter(mail: MailSender, message: MailMessage, log: Log, what: string): Promise<void> {
  try {
    await mail.send(message);
  } catch (err) {
    const { name, code, retryable, responseCode } = err as {
      name?: string;
      code?: string;
      retryable?: boolean;
      responseCode?: number;
    };
    log.error({ mailError: { name, code, retryable, responseCode } }, `newsletter: ${what} not sent`);
  }
}

export async function newsletterRoutes(
  app: FastifyInstance,
  { db, mail, siteUrl, now = () => new Date() }: { db: Database; mail: MailSender; siteUrl: string; now?: () => Date },
): Promise<void> {
  app.post('/api/personal/subscribe_form.php', async (req, reply) => {
    const body = parseBody(SubscribeBody, req, reply);
    if (!body) return reply;
    reply.header('cache-control', 'private, no-store');
    const email = Email.safeParse(body.email ?? '');
    if (!email.success) return { error: NEWSLETTER_TEXT.badEmail } satisfies NewsletterResponse;

    // Every well-formed try counts, repeats too: each may send a letter or tell whether an
    // address is subscribed.
    if (!(await hitRateLimit({ db, key: `newsletter:ip:${req.ip}`, ...NEWSLETTER_IP_LIMIT, now: now() }))) {
      req.log.warn({ ip: req.ip }, 'newsletter: too many subscriptions from one address');
      return { error: NEWSLETTER_TEXT.tooMany } satisfies NewsletterResponse;
    }

    const address = email.data.toLowerCase();
    const result = await subscribe({ db, email: address });
    if (result.status === 'already') return { message: NEWSLETTER_TEXT.already } satisfies NewsletterResponse;

    // Still pending (a repeat) sends the letter again, with the same link: the first may be lost.
    // A failed letter leaves the subscription pending; the form can be sent again.
    await sendLetter(
      mail,
      { to: address, tag: NEWSLETTER_CONFIRM_TAG, ...newsletterConfirmMail({ siteUrl, token: result.token }) },
      req.log,
      'confirmation letter',
    );
    return { message: NEWSLETTER_TEXT.checkMail } satisfies NewsletterResponse;
  });

  const linkRoute = (
    path: string,
    run: (
      token: string,
      log: Log,
    ) => Promise<{ email: string; status: 'pending' | 'confirmed' | 'unsubscribed'; changed: boolean } | null>,
  ) =>
    app.post(path, async (req, reply) => {
      const body = parseBody(LinkBody, req, reply);
      if (!body) return reply;
      reply.header('cache-control', 'private, no-store');
      const found = isNewsletterToken(body.token) ? await run(body.token, req.log) : null;
      if (!found) return { status: 'unknown', email: null, changed: false } satisfies NewsletterLinkResponse;
      return {
        status: found.status,
        email: maskNewsletterEmail(found.email),
        changed: found.changed,
      } satisfies NewsletterLinkResponse;
    });

  linkRoute('/api/newsletter/status', async (token) => {
    const found = await findByToken({ db, token });
    return found && { ...found, changed: false };
  });

  linkRoute('/api/newsletter/confirm', async (token, log) => {
    const result = await confirmSubscription({ db, token });
    // Only the request that confirmed sends the first letter: a second click sends nothing.
    if (result?.changed)
      await sendLetter(
        mail,
        { to: result.email, tag: NEWSLETTER_WELCOME_TAG, ...newsletterWelcomeMail({ siteUrl, token }) },
        log,
        'welcome letter',
      );
    return result;
  });

  linkRoute('/api/newsletter/unsubscribe', (token) => unsubscribe({ db, token }));
}
