import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { renderSVG } from 'uqr';
import type { AdminError } from '~/shared/admin-contract';
import {
  LoginBody,
  LoginCodeBody,
  LoginStepResponse,
  MeResponse,
  OkResponse,
  PasswordChangeBody,
  SetupFinishBody,
  SetupStartBody,
  SetupStartResponse,
  type StaffMe,
} from '~/shared/admin-contract';
import { ROLE_LABELS, isStaffRole, permissionsOf } from '~/core/staff-roles';
import {
  STAFF_PASSWORD_MAX,
  STAFF_PASSWORD_MIN,
  STAFF_SESSION_ABSOLUTE_MS,
  STAFF_SESSION_IDLE_MS,
} from '~/core/staff-auth';
import { groupSecret, otpauthUri } from '~/core/totp';
import { staffCodeStep, staffPasswordStep, takeLoginTry } from '~/models/staff-login.server';
import {
  changeOwnPassword,
  finishStaffSetup,
  staffAuditView,
  staffOfSetupLink,
  startStaffSetup,
} from '~/models/staff.server';
import { activeSession, endSession, openSessionOfToken, type ActiveSession } from '~/models/staff-sessions.server';
import { writeAudit } from '~/models/audit.server';
import { runAdminChange } from '~/models/admin-change.server';
import { parseAdmin, refusal } from './action.server';
import { readStaffCookie, requireStaff, setStaffCookie, staffActor, type AdminDeps } from './context.server';
import { isCommonPassword } from './common-passwords.server';
import { defineRoute } from '~/api/route.server';
import { adminDoc } from './openapi';

// Staff login (docs/back-office.md): POST auth/login (e-mail and password: a half-way cookie),
// POST auth/totp (the code: the session cookie, a new token), POST auth/logout, GET auth/me; and
// the one-time link's page: POST auth/setup/start (the key to enrol), POST auth/setup/finish.
// Every try is logged; a known account's failed try and every login are audited.

const ISSUER = 'Vitrina';

export function staffMe(active: ActiveSession): StaffMe {
  const { staff, session } = active;
  const role = isStaffRole(staff.role) ? staff.role : null;
  const authenticatedAt = session.authenticatedAt ?? session.createdAt;
  return {
    id: staff.id,
    email: staff.email,
    name: staff.name,
    role: staff.role,
    role_label: role ? ROLE_LABELS[role] : staff.role,
    permissions: role ? permissionsOf(role) : [],
    session: {
      authenticated_at: authenticatedAt.toISOString(),
      expires_at: new Date(authenticatedAt.getTime() + STAFF_SESSION_ABSOLUTE_MS).toISOString(),
      idle_timeout_seconds: STAFF_SESSION_IDLE_MS / 1000,
    },
  };
}

const client = (req: FastifyRequest) => ({ ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '') });

function capped(reply: FastifyReply, retryAfter: number): FastifyReply {
  const wait = retryAfter >= 120 ? `${Math.ceil(retryAfter / 60)} мин` : `${retryAfter} с`;
  return reply
    .code(429)
    .header('retry-after', String(retryAfter))
    .send({
      error: `Слишком много неудачных попыток. Повторите через ${wait}`,
      retry_after: retryAfter,
    } satisfies AdminError);
}

export async function adminAuthRoutes(app: FastifyInstance, deps: AdminDeps): Promise<void> {
  const { db, siteUrl } = deps;
  /** A known account's failed try, in the audit log (unknown e-mails only in the server log). */
  const auditFailedTry = (req: FastifyRequest, staff: { id: number; email: string }, reason: string, now: Date) =>
    writeAudit(
      db,
      { kind: 'staff', staffId: staff.id, label: staff.email, sessionId: null, ip: req.ip, requestId: String(req.id) },
      { action: 'auth.login_failed', entityType: 'staff', entityId: staff.id, reason },
      now,
    );
  defineRoute(app, {
    method: 'POST',
    url: '/auth/login',
    summary: 'Login, step 1: e-mail and password. Sets the half-way cookie; 401 wrong, 429 capped (retry_after)',
    ...adminDoc({ permission: null, response: LoginStepResponse }),
    body: LoginBody,
    parse: parseAdmin,
    handler: async ({ body }, req, reply) => {
      const now = deps.now();
      const r = await staffPasswordStep({ db, email: body.email, password: body.password, client: client(req), now });
      if (r.ok) {
        req.log.info(
          { admin: 'login', step: 'password', staffId: r.staff.id, ip: req.ip },
          'admin login: password right, code awaited',
        );
        setStaffCookie(reply, siteUrl, r.token);
        return { next: 'totp' } satisfies LoginStepResponse;
      }
      if (r.reason === 'capped') {
        req.log.warn({ admin: 'login', step: 'password', cap: r.cap, ip: req.ip }, 'admin login: capped');
        return capped(reply, r.retryAfter);
      }
      if (r.reason === 'no_totp') {
        req.log.warn(
          { admin: 'login', step: 'password', staffId: r.staff.id, ip: req.ip },
          'admin login: no authenticator enrolled',
        );
        return reply.code(403).send({
          error: 'Приложение-аутентификатор не подключено. Попросите администратора прислать ссылку для подключения',
        } satisfies AdminError);
      }
      req.log.warn(
        { admin: 'login', step: 'password', staffId: r.staff?.id ?? null, ip: req.ip },
        'admin login: wrong e-mail or password',
      );
      if (r.staff) await auditFailedTry(req, r.staff, r.staff.disabled ? 'отключён' : 'пароль', now);
      return reply.code(401).send({ error: 'Неверный адрес почты или пароль' } satisfies AdminError);
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/auth/totp',
    summary: 'Login, step 2: the authenticator code (each usable once). Sets the session cookie with a new token',
    ...adminDoc({ permission: null, response: MeResponse }),
    body: LoginCodeBody,
    parse: parseAdmin,
    handler: async ({ body }, req, reply) => {
      const token = readStaffCookie(req, siteUrl);
      const now = deps.now();
      const r = token
        ? await staffCodeStep({
            db,
            token,
            code: body.code,
            client: client(req),
            requestId: String(req.id),
            now,
            totpKey: deps.totpKey,
          })
        : ({ ok: false, reason: 'no_login' } as const);
      if (r.ok) {
        req.log.info({ admin: 'login', step: 'code', staffId: r.staff.id, ip: req.ip }, 'admin login: session started');
        setStaffCookie(reply, siteUrl, r.token);
        const active = await activeSession(db, { token: r.token, now });
        if (!active.ok) throw new Error('the session just made is not active');
        return { data: staffMe(active.active) } satisfies MeResponse;
      }
      if (r.reason === 'capped') {
        req.log.warn({ admin: 'login', step: 'code', cap: r.cap, ip: req.ip }, 'admin login: capped');
        return capped(reply, r.retryAfter);
      }
      if (r.reason === 'no_login') {
        req.log.warn({ admin: 'login', step: 'code', ip: req.ip }, 'admin login: code without a password step');
        return reply.code(401).send({ error: 'Время на ввод кода вышло. Введите пароль снова' } satisfies AdminError);
      }
      req.log.warn(
        { admin: 'login', step: 'code', staffId: r.staff.id, ip: req.ip },
        'admin login: wrong or used code',
      );
      await auditFailedTry(req, r.staff, 'код', now);
      return reply.code(401).send({ error: 'Неверный или уже использованный код' } satisfies AdminError);
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/auth/logout',
    summary: 'Ends this session (or half-way login) and clears the cookie',
    ...adminDoc({ permission: null, response: OkResponse }),
    parse: parseAdmin,
    handler: async (_input, req, reply) => {
      const token = readStaffCookie(req, siteUrl);
      setStaffCookie(reply, siteUrl, null);
      const now = deps.now();
      const open = token ? await openSessionOfToken(db, { token }) : null;
      if (open) {
        await runAdminChange({
          db,
          now,
          actor: {
            kind: 'staff',
            staffId: open.staff.id,
            label: open.staff.email,
            sessionId: open.session.id,
            ip: req.ip,
            requestId: String(req.id),
          },
          idempotency: null,
          change: async (tx) => {
            const ended = await endSession(tx, { sessionId: open.session.id, reason: 'logout', now });
            // A half-way login ends unrecorded; a session's end is in the log.
            if (!ended || open.session.stage !== 'active') return { ok: false, status: 200, body: { ok: true } };
            return {
              ok: true,
              body: { ok: true },
              audit: { action: 'auth.logout', entityType: 'staff', entityId: open.staff.id },
            };
          },
        });
        req.log.info({ admin: 'logout', staffId: open.staff.id, ip: req.ip }, 'admin: logged out');
      }
      return { ok: true as const };
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/auth/password',
    summary:
      'Changes the own password (current one checked, counted by the login caps); ends every session, this one too',
    ...adminDoc({ permission: null, response: OkResponse }),
    body: PasswordChangeBody,
    parse: parseAdmin,
    preHandler: requireStaff(deps, null),
    handler: async ({ body }, req, reply) => {
      const { staff } = req.staffSession as ActiveSession;
      const now = deps.now();
      // A stolen session must not try passwords freely: the login's caps count these tries too.
      const tried = await takeLoginTry({ db, account: staff.email, ip: req.ip, now });
      if (!tried.ok) {
        req.log.warn(
          { admin: 'password', staffId: staff.id, cap: tried.cap, ip: req.ip },
          'admin password change: capped',
        );
        return capped(reply, tried.retryAfter);
      }
      const answer = await runAdminChange({
        db,
        now,
        actor: staffActor(req),
        idempotency: null,
        change: async (tx) => {
          const r = await changeOwnPassword(tx, {
            id: staff.id,
            current: body.current_password,
            password: body.password,
            now,
            isCommonPassword,
          });
          if (!r.ok) return refusal(r);
          return {
            ok: true,
            body: { ok: true },
            audit: {
              action: 'staff.password',
              entityType: 'staff',
              entityId: staff.id,
              after: { sessions_ended: r.sessionsEnded },
            },
          };
        },
      });
      req.log[answer.status === 200 ? 'info' : 'warn'](
        { admin: 'password', staffId: staff.id, status: answer.status, ip: req.ip },
        'admin password change',
      );
      if (answer.status === 200) {
        await tried.giveBack();
        setStaffCookie(reply, siteUrl, null);
      }
      return reply.code(answer.status).send(answer.body);
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/auth/me',
    summary: 'The staff member of this session: role, permissions, session times',
    ...adminDoc({ permission: null, response: MeResponse }),
    parse: parseAdmin,
    preHandler: requireStaff(deps, null),
    handler: async (_input, req) => {
      return { data: staffMe(req.staffSession as ActiveSession) } satisfies MeResponse;
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/auth/setup/start',
    summary: 'The one-time link opened: the authenticator key to enrol (secret, otpauth URI, QR code)',
    ...adminDoc({ permission: null, response: SetupStartResponse }),
    body: SetupStartBody,
    parse: parseAdmin,
    handler: async ({ body }, req, reply) => {
      const r = await startStaffSetup(db, { token: body.token, now: deps.now(), totpKey: deps.totpKey });
      if (!r.ok) {
        req.log.warn({ admin: 'setup', ip: req.ip }, 'admin setup: dead link');
        return reply.code(404).send({ error: r.error, field: r.field } satisfies AdminError);
      }
      const uri = otpauthUri({ issuer: ISSUER, account: r.staff.email, secret: r.secret });
      return {
        data: {
          email: r.staff.email,
          name: r.staff.name,
          purpose: r.purpose,
          password_min: STAFF_PASSWORD_MIN,
          password_max: STAFF_PASSWORD_MAX,
          secret: groupSecret(r.secret),
          otpauth_uri: uri,
          qr_svg: renderSVG(uri, { border: 2, ecc: 'M' }),
        },
      } satisfies SetupStartResponse;
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/auth/setup/finish',
    summary: 'The one-time link sent: password (new, or the current one after a reset) and a code from the new key',
    ...adminDoc({ permission: null, response: OkResponse }),
    body: SetupFinishBody,
    parse: parseAdmin,
    handler: async ({ body }, req, reply) => {
      const now = deps.now();
      // Who acts: the link's owner (read first for the audit row; the change checks the link again under its lock).
      const owner = await staffOfSetupLink(db, { token: body.token, now });
      if (!owner) {
        req.log.warn({ admin: 'setup', ip: req.ip }, 'admin setup: dead link');
        return reply.code(404).send({
          error: 'Ссылка недействительна или устарела: попросите администратора прислать новую',
          field: 'token',
        } satisfies AdminError);
      }
      const answer = await runAdminChange({
        db,
        now,
        actor: {
          kind: 'staff',
          staffId: owner.id,
          label: owner.email,
          sessionId: null,
          ip: req.ip,
          requestId: String(req.id),
        },
        idempotency: null,
        change: async (tx) => {
          const r = await finishStaffSetup(tx, {
            token: body.token,
            password: body.password,
            code: body.code,
            now,
            totpKey: deps.totpKey,
            isCommonPassword,
          });
          if (!r.ok) return refusal(r);
          return {
            ok: true,
            body: { ok: true },
            audit: {
              action: r.purpose === 'setup' ? 'staff.setup' : 'staff.totp_enrol',
              entityType: 'staff',
              entityId: r.after.id,
              before: staffAuditView(r.before),
              after: { ...staffAuditView(r.after), sessions_ended: r.sessionsEnded },
            },
          };
        },
      });
      req.log[answer.status === 200 ? 'info' : 'warn'](
        { admin: 'setup', staffId: owner.id, status: answer.status, ip: req.ip },
        'admin setup: finish',
      );
      return reply.code(answer.status).send(answer.body);
    },
  });
}
