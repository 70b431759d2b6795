import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '~/db/client.server';
import type { MailSender } from '~/integrations/mail/mail';
import type { CaptchaVerifier } from '~/integrations/captcha/captcha';
import { AUTH_TEXT, cleanCode, isCodeShaped, normalizeEmail, RESEND_SECONDS, resendText } from '~/core/auth';
import { EMAIL_CAPTCHA_ACTION, EMAIL_LOGIN_TAG, loginCodeMail, noAccountMail } from '~/core/email-login';
import { AuthResponse, SendCodeResponse } from '~/shared/contract';
import {
  checkLoginCode,
  createLoginCode,
  createSession,
  dropLoginCode,
  findCustomerByEmail,
  isCustomerBlocked,
} from '~/models/auth.server';
import { getCustomer } from '~/models/customers.server';
import { ensureTestAccountOrder } from '~/models/test-account.server';
import { lastValue } from '~/api/http.server';
import { BAD_PARAMETERS, defineRoute } from '~/api/route.server';
import { toUserMain } from './mappers';
import { signSessionToken } from './token.server';

// Login by a code sent by e-mail (SPEC §2 /auth/email/), the twin of send_sms.php and
// auth_phone.php with the same answers. E-mail login is for customers who gave the address in
// their profile; an unknown address gets the very same answer (and the same limits, since a
// code row is made for it too) and a letter saying no account uses it, so the form never
// tells a stranger whether an address is registered.

export interface EmailLoginDeps {
  db: Database;
  mail: MailSender;
  captcha: CaptchaVerifier;
  authSecret: string;
  /** The shop's public origin, for the link in the no-account letter. */
  siteUrl: string;
}

const field = (description: string) => z.preprocess(lastValue, z.string().max(1000).optional()).describe(description);
const SendEmailBody = z.object({
  email: field('The e-mail address'),
  recaptcha_token: field('Captcha token of action send_email'),
});
const AuthEmailBody = z.object({ email: field('The e-mail address'), code: field('The code from the letter') });

export async function emailLoginRoutes(
  app: FastifyInstance,
  { db, mail, captcha, authSecret, siteUrl }: EmailLoginDeps,
): Promise<void> {
  app.addHook('onSend', async (_req, reply) => {
    reply.header('cache-control', 'private, no-store');
  });

  defineRoute(app, {
    method: 'POST',
    url: '/api/personal/send_email_code.php',
    summary: 'Send a login code by e-mail (6 digits, 5 minutes, 5 tries)',
    description:
      'For customers with this e-mail in their profile; any other well-formed address gets the same answer and a letter saying no account uses it (no code), so the answer never says whether the address is registered. The same refusals as send_sms.php: captcha (action send_email), 59 s between codes (resend_in), 5 an hour and 10 a day per address, per client IP, per day for the shop.',
    body: SendEmailBody,
    responses: { 200: { description: 'Sent, or why not', schema: SendCodeResponse }, 400: BAD_PARAMETERS },
    handler: async ({ body }, req) => {
      const fail = (error: string, resendIn?: number): SendCodeResponse => ({
        success: false,
        error,
        ...(resendIn === undefined ? {} : { resend_in: resendIn }),
      });
      const email = normalizeEmail(body.email ?? '');
      if (!email) return fail(AUTH_TEXT.email);
      // The captcha first: a bot's request costs no counter and sends no letter.
      const check = await captcha.verify({
        token: body.recaptcha_token ?? '',
        action: EMAIL_CAPTCHA_ACTION,
        ip: req.ip,
      });
      if (!check.ok) {
        req.log.info({ reason: check.reason, score: check.score }, 'e-mail login code refused: captcha');
        return fail(AUTH_TEXT.captcha);
      }
      // Made for unknown addresses too: the 59-second and hourly answers must not differ.
      const made = await createLoginCode({ db, secret: authSecret, channel: 'email', target: email, ip: req.ip });
      if (!made.ok) {
        if (made.reason === 'too_soon') return fail(resendText(made.retryAfter), made.retryAfter);
        req.log.warn({ limit: made.limit, ip: req.ip }, 'e-mail login code refused: a send cap was hit');
        return fail(AUTH_TEXT.tooMany);
      }
      const customer = await findCustomerByEmail({ db, email });
      const letter = customer ? loginCodeMail({ code: made.code, siteUrl }) : noAccountMail({ siteUrl });
      try {
        await mail.send({ to: email, tag: customer ? EMAIL_LOGIN_TAG.code : EMAIL_LOGIN_TAG.noAccount, ...letter });
      } catch (err) {
        // The kind of failure, not the message: an SMTP reply may quote the shopper's address.
        const { name, code, retryable, responseCode } = err as {
          name?: string;
          code?: string;
          retryable?: boolean;
          responseCode?: number;
        };
        req.log.warn({ mailError: { name, code, retryable, responseCode } }, 'e-mail login code not sent');
        await dropLoginCode({ db, channel: 'email', target: email });
        return fail(AUTH_TEXT.sendFailed);
      }
      return { success: true, resend_in: RESEND_SECONDS } satisfies SendCodeResponse;
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/api/personal/auth_email.php',
    summary: 'Log in with the code from the e-mail: the session token (jwt_token) and the main data, or data.error',
    body: AuthEmailBody,
    responses: { 200: { description: 'user, or data.error', schema: AuthResponse }, 400: BAD_PARAMETERS },
    handler: async ({ body }, req) => {
      const fail = (error: string): AuthResponse => ({ data: { error } });
      const email = normalizeEmail(body.email ?? '');
      if (!email) return fail(AUTH_TEXT.email);
      const code = cleanCode(body.code ?? '');
      if (!isCodeShaped(code)) return fail(AUTH_TEXT.codeFormat);
      const checked = await checkLoginCode({ db, secret: authSecret, channel: 'email', target: email, code });
      if (!checked.ok)
        return fail(
          checked.reason === 'wrong'
            ? AUTH_TEXT.codeWrong
            : checked.reason === 'attempts'
              ? AUTH_TEXT.codeAttempts
              : AUTH_TEXT.codeExpired,
        );
      // Looked up again: the address may have left the profile since the code was sent. No
      // customer means the code was never mailed, so it reads as a wrong one.
      const customer = await findCustomerByEmail({ db, email });
      if (!customer) return fail(AUTH_TEXT.codeWrong);
      const record = await getCustomer({ db, customerId: customer.id });
      if (!record) return fail(AUTH_TEXT.codeWrong);
      if (await isCustomerBlocked({ db, customerId: record.id })) return fail(AUTH_TEXT.blocked);
      await ensureTestAccountOrder({ db, customerId: record.id, phone: record.phone });
      const session = await createSession({
        db,
        customerId: record.id,
        userAgent: req.headers['user-agent'] ?? '',
        ip: req.ip,
      });
      const jwt = await signSessionToken(
        authSecret,
        { sessionId: session.id, customerId: record.id },
        session.expiresAt,
      );
      return { user: { ...toUserMain(record), jwt_token: jwt } } satisfies AuthResponse;
    },
  });
}
