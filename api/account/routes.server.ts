import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '~/db/client.server';
import type { SmsGateway } from '~/integrations/sms/sms';
import type { CaptchaVerifier } from '~/integrations/captcha/captcha';
import { AUTH_TEXT, cleanCode, isCodeShaped, loginSmsText, RESEND_SECONDS, resendText } from '~/core/auth';
import { normalizePhone } from '~/core/phone';
import { AuthResponse, LogoutResponse, ProfileResponse, SendCodeResponse } from '~/shared/contract';
import {
  checkLoginCode,
  createLoginCode,
  createSession,
  dropLoginCode,
  findOrCreateCustomerByPhone,
  isCustomerBlocked,
  revokeAllSessions,
  revokeSession,
} from '~/models/auth.server';
import { getCustomer } from '~/models/customers.server';
import { ensureTestAccountOrder } from '~/models/test-account.server';
import { lastValue, unauthorized } from '~/api/http.server';
import { BAD_PARAMETERS, defineRoute } from '~/api/route.server';
import { toUserInfo, toUserMain } from './mappers';
import { sessionOfToken } from './session.server';
import { customerRoute } from './require-customer.server';
import { signSessionToken } from './token.server';

// SPEC §7 account calls at the paths SPEC writes (send_sms.php, auth_phone.php,
// profile_main.php) and logout.php, ours. Shopper mistakes answer 200 with the Russian text
// SPEC's shapes carry (`error`, `data.error`); a missing or dead token is a 401.

export interface AccountDeps {
  db: Database;
  sms: SmsGateway;
  captcha: CaptchaVerifier;
  /** Signs session tokens and keys the login-code hashes (server/secrets.server.ts). */
  authSecret: string;
}

const field = (description: string) => z.preprocess(lastValue, z.string().max(1000).optional()).describe(description);
const SendSmsBody = z.object({
  phone: field('Phone, country code first (any formatting)'),
  recaptcha_token: field('Captcha token of action send_sms'),
});
const AuthPhoneBody = z.object({ phone: field('Phone'), code: field('The code from the SMS') });
/** SPEC §7 passes the token as `params[token]` to profile_main.php and as `token` elsewhere: both read as `token`. */
const TokenBody = z
  .object({
    token: field('Session token (jwt_token)'),
    params: z.object({ token: field('Session token, as SPEC §7 sends it to profile_main.php') }).optional(),
    all: field("logout.php: 'yes' ends every session of the customer"),
  })
  .transform(({ params, token, all }) => ({ token: params?.token ?? token, all }));
const SEND_SMS_TEXT =
  'Refused, with the Russian reason, without a good captcha token, within 59 s of the last code to the phone (resend_in says how long), or past the caps: 5 an hour and 10 a day per phone, per client IP, per number range, per day for the shop. The answer never says whether the phone has an account.';

export async function accountRoutes(
  app: FastifyInstance,
  { db, sms, captcha, authSecret }: AccountDeps,
): Promise<void> {
  const auth = { db, secret: authSecret };
  app.addHook('onSend', async (_req, reply) => {
    reply.header('cache-control', 'private, no-store');
  });

  defineRoute(app, {
    method: 'POST',
    url: '/api/personal/send_sms.php',
    summary: 'Send a login code by SMS (6 digits, 5 minutes, 5 tries)',
    description: SEND_SMS_TEXT,
    body: SendSmsBody,
    responses: { 200: { description: 'Sent, or why not', schema: SendCodeResponse }, 400: BAD_PARAMETERS },
    handler: async ({ body }, req) => {
      const fail = (error: string, resendIn?: number): SendCodeResponse => ({
        success: false,
        error,
        ...(resendIn === undefined ? {} : { resend_in: resendIn }),
      });
      const phone = normalizePhone(body.phone ?? '');
      if (!phone.ok) return fail(AUTH_TEXT.phone);
      // The captcha first: a bot's request costs no counter and no SMS.
      const check = await captcha.verify({ token: body.recaptcha_token ?? '', action: 'send_sms', ip: req.ip });
      if (!check.ok) {
        req.log.info({ reason: check.reason, score: check.score }, 'login code refused: captcha');
        return fail(AUTH_TEXT.captcha);
      }
      const made = await createLoginCode({ db, secret: authSecret, channel: 'phone', target: phone.phone, ip: req.ip });
      if (!made.ok) {
        if (made.reason === 'too_soon') return fail(resendText(made.retryAfter), made.retryAfter);
        req.log.warn({ limit: made.limit, ip: req.ip }, 'login code refused: a send cap was hit');
        return fail(AUTH_TEXT.tooMany);
      }
      try {
        await sms.send({ phone: phone.phone, text: loginSmsText(made.code), tag: 'login-code', ip: req.ip });
      } catch (err) {
        req.log.warn({ err }, 'login code not sent');
        await dropLoginCode({ db, channel: 'phone', target: phone.phone });
        return fail(AUTH_TEXT.sendFailed);
      }
      return { success: true, resend_in: RESEND_SECONDS } satisfies SendCodeResponse;
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/api/personal/auth_phone.php',
    summary: 'Log in with the code: the session token (jwt_token) and the main data, or data.error',
    body: AuthPhoneBody,
    responses: { 200: { description: 'user, or data.error', schema: AuthResponse }, 400: BAD_PARAMETERS },
    handler: async ({ body }, req) => {
      const fail = (error: string): AuthResponse => ({ data: { error } });
      const phone = normalizePhone(body.phone ?? '');
      if (!phone.ok) return fail(AUTH_TEXT.phone);
      const code = cleanCode(body.code ?? '');
      if (!isCodeShaped(code)) return fail(AUTH_TEXT.codeFormat);
      const checked = await checkLoginCode({ db, secret: authSecret, channel: 'phone', target: phone.phone, code });
      if (!checked.ok)
        return fail(
          checked.reason === 'wrong'
            ? AUTH_TEXT.codeWrong
            : checked.reason === 'attempts'
              ? AUTH_TEXT.codeAttempts
              : AUTH_TEXT.codeExpired,
        );
      const customer = await findOrCreateCustomerByPhone({ db, phone: phone.phone });
      if (await isCustomerBlocked({ db, customerId: customer.id })) return fail(AUTH_TEXT.blocked);
      await ensureTestAccountOrder({ db, customerId: customer.id, phone: phone.phone });
      const session = await createSession({
        db,
        customerId: customer.id,
        userAgent: req.headers['user-agent'] ?? '',
        ip: req.ip,
      });
      const jwt = await signSessionToken(
        authSecret,
        { sessionId: session.id, customerId: customer.id },
        session.expiresAt,
      );
      const record = await getCustomer({ db, customerId: customer.id });
      if (!record) throw new Error('customer vanished after login');
      return { user: { ...toUserMain(record), jwt_token: jwt } } satisfies AuthResponse;
    },
  });

  customerRoute(app, auth, {
    url: '/api/personal/profile_main.php',
    summary: "The token's customer: main data and profile (the token as params[token] or token)",
    body: TokenBody,
    responses: { 200: { description: 'The profile', schema: ProfileResponse } },
    handler: async (session, _req, reply) => {
      const record = await getCustomer({ db, customerId: session.customerId });
      if (!record) return unauthorized(reply);
      return {
        userMain: toUserMain(record),
        userInfo: toUserInfo(record),
        subscribed: record.subscribed,
      } satisfies ProfileResponse;
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/api/personal/logout.php',
    summary: "End the token's session, or with all=yes every session of its customer (a dead token: nothing to end)",
    body: TokenBody,
    responses: { 200: { description: 'How many sessions ended', schema: LogoutResponse }, 400: BAD_PARAMETERS },
    handler: async ({ body }) => {
      const session = await sessionOfToken({ db, secret: authSecret, token: body.token });
      // Logging out a dead token is done already: nothing to revoke, nothing to say.
      if (!session) return { success: true, revoked: 0 } satisfies LogoutResponse;
      if (body.all === 'yes')
        return {
          success: true,
          revoked: await revokeAllSessions({ db, customerId: session.customerId }),
        } satisfies LogoutResponse;
      await revokeSession({ db, sessionId: session.sessionId });
      return { success: true, revoked: 1 } satisfies LogoutResponse;
    },
  });
}
