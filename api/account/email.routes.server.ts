import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '~/db/client.server';
import type { MailSender } from '~/integrations/mail/mail';
import type { CaptchaVerifier } from '~/integrations/captcha/captcha';
import { AUTH_TEXT, cleanCode, isCodeShaped, normalizeEmail, RESEND_SECONDS, resendText } from '~/core/auth';
import { EMAIL_CAPTCHA_ACTION, EMAIL_LOGIN_TAG, loginCodeMail, noAccountMail } from '~/core/email-login';
import type { AuthResponse, SendCodeResponse } from '~/shared/contract';
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
import { lastValue, parseBody } from '~/api/http.server';
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

const field = () => z.preprocess(lastValue, z.string().max(1000).optional());
const SendEmailBody = z.object({ email: field(), recaptcha_token: field() });
const AuthEmailBody = z.object({ email: field(), code: field() });

export async function emailLoginRoutes(
  app: FastifyInstance,
  { db, mail, captcha, authSecret, siteUrl }: EmailLoginDeps,
): Promise<void> {
  app.addHook('onSend', async (_req, reply) => {
    reply.header('cache-control', 'private, no-store');
  });

  app.post('/api/personal/send_email_code.php', async (req, reply) => {
    const body = parseBody(SendEmailBody, req, reply);
    if (!body) return reply;
    const fail = (error: string, resendIn?: number): SendCodeResponse => ({
      success: false,
      error,
      ...(resendIn === undefined ? {} : { resend_in: resendIn }),
    });
    const email = normalizeEmail(body.email ?? '');
    if (!email) return fail(AUTH_TEXT.email);
    // The captcha first: a bot's request costs no counter and sends no letter.
    const check = await captcha.verify({ token: body.recaptcha_token ?? '', action: EMAIL_CAPTCHA_ACTION, ip: req.ip });
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
  });

  app.post('/api/personal/auth_email.php', async (req, reply) => {
    const body = parseBody(AuthEmailBody, req, reply);
    if (!body) return reply;
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
    const jwt = await signSessionToken(authSecret, { sessionId: session.id, customerId: record.id }, session.expiresAt);
    return { user: { ...toUserMain(record), jwt_token: jwt } } satisfies AuthResponse;
  });
}
