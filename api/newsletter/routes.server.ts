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
import { NewsletterLinkResponse, NewsletterResponse } from '~/shared/contract';
import { confirmSubscription, findByToken, subscribe, unsubscribe } from '~/models/newsletter.server';
import { hitRateLimit } from '~/models/rate-limit.server';
import { lastValue } from '~/api/http.server';
import { BAD_PARAMETERS, defineRoute } from '~/api/route.server';

// SPEC §7 `POST /api/personal/subscribe_form.php` (the footer's newsletter form). As with the
// basket's guest forms, what the shopper can fix answers 200 with the text to show
// (`{ error }`); only a request no form sends (not a string) is a 400.
// Double opt-in (issue #26): the form makes a pending subscription and sends the letter with the
// confirmation link; `POST /api/newsletter/{status,confirm,unsubscribe}` serve the pages those
// links open (app/routes/newsletter.tsx), with the token as the only credential.

const SubscribeBody = z.object({
  email: z.preprocess(lastValue, z.string().max(10_000).optional()).describe('The e-mail address'),
});

const Email = z.string().trim().max(EMAIL_MAX_LENGTH).pipe(z.email());

const LinkBody = z.object({
  token: z
    .preprocess(lastValue, z.string().max(200).optional())
    .describe('From the letter’s link (no login); an unknown or malformed one answers status unknown'),
});
const LINK_ANSWER = {
  200: {
    description: 'The subscription’s state, its address masked, whether this call changed it',
    schema: NewsletterLinkResponse,
  },
  400: BAD_PARAMETERS,
};

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
  defineRoute(app, {
    method: 'POST',
    url: '/api/personal/subscribe_form.php',
    summary:
      'Subscribe an e-mail address to the newsletter: pending until the link in the confirmation letter is confirmed',
    description:
      'A bad address and too many tries from one IP (10 an hour) answer 200 with `error`, the text to show above the field; an address already subscribed answers a `message` too.',
    body: SubscribeBody,
    responses: {
      200: { description: 'The message to show, or the error', schema: NewsletterResponse },
      400: BAD_PARAMETERS,
    },
    handler: async ({ body }, req, reply) => {
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
    },
  });

  const linkRoute = (
    path: string,
    summary: string,
    run: (
      token: string,
      log: Log,
    ) => Promise<{ email: string; status: 'pending' | 'confirmed' | 'unsubscribed'; changed: boolean } | null>,
  ) =>
    defineRoute(app, {
      method: 'POST',
      url: path,
      summary,
      bodyType: ['json', 'form'],
      body: LinkBody,
      responses: LINK_ANSWER,
      handler: async ({ body }, req, reply) => {
        reply.header('cache-control', 'private, no-store');
        const found = isNewsletterToken(body.token) ? await run(body.token, req.log) : null;
        if (!found) return { status: 'unknown', email: null, changed: false } satisfies NewsletterLinkResponse;
        return {
          status: found.status,
          email: maskNewsletterEmail(found.email),
          changed: found.changed,
        } satisfies NewsletterLinkResponse;
      },
    });

  linkRoute('/api/newsletter/status', 'A newsletter letter’s link: the subscription’s state', async (token) => {
    const found = await findByToken({ db, token });
    return found && { ...found, changed: false };
  });

  linkRoute(
    '/api/newsletter/confirm',
    'Confirm a pending subscription (double opt-in); the first confirmation sends the welcome letter',
    async (token, log) => {
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
    },
  );

  linkRoute('/api/newsletter/unsubscribe', 'Unsubscribe (the page behind List-Unsubscribe calls it)', (token) =>
    unsubscribe({ db, token }),
  );
}
