import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '~/db/client.server';
import type { SmsGateway } from '~/integrations/sms/sms';
import type { CaptchaVerifier } from '~/integrations/captcha/captcha';
import { AUTH_TEXT, cleanCode, isCodeShaped, loginSmsText, RESEND_SECONDS, resendText } from '~/core/auth';
import { normalizePhone } from '~/core/phone';
import type { AuthResponse, LogoutResponse, ProfileResponse, SendCodeResponse } from '~/shared/contract';
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
import { lastValue, parseBody, unauthorized } from '~/api/http.server';
import { toUserInfo, toUserMain } from './mappers';
import { sessionOfToken } from './session.server';
import { requireCustomer } from './require-customer.server';
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

const field = () => z.preprocess(lastValue, z.string().max(1000).optional());
const SendSmsBody = z.object({ phone: field(), recaptcha_token: field() });
const AuthPhoneBody = z.object({ phone: field(), code: field() });
/** SPEC §7 passes the token as `params[token]` to profile_main.php and as `token` elsewhere: both read as `token`. */
const TokenBody = z
  .object({ token: field(), params: z.object({ token: field() }).optional(), all: field() })
  .transform(({ params, token, all }) => ({ token: params?.token ?? token, all }));

export async function accountRoutes(
  app: FastifyInstance,
  { db, sms, captcha, authSecret }: AccountDeps,
): Promise<void> {
  app.addHook('onSend', async (_req, reply) => {
    reply.header('cache-control', 'private, no-store');
  });

  app.post('/api/personal/send_sms.php', async (req, reply) => {
    const body = parseBody(SendSmsBody, req, reply);
    if (!body) return reply;
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
  });

  app.post('/api/personal/auth_phone.php', async (req, reply) => {
    const body = parseBody(AuthPhoneBody, req, reply);
    if (!body) return reply;
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
  });

  app.post('/api/personal/profile_main.php', async (req, reply) => {
    const session = await requireCustomer({ db, secret: authSecret }, TokenBody, req, reply);
    if (!session) return reply;
    const record = await getCustomer({ db, customerId: session.customerId });
    if (!record) return unauthorized(reply);
    return {
      userMain: toUserMain(record),
      userInfo: toUserInfo(record),
      subscribed: record.subscribed,
    } satisfies ProfileResponse;
  });

  app.post('/api/personal/logout.php', async (req, reply) => {
    const body = parseBody(TokenBody, req, reply);
    if (!body) return reply;
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
  });
}
