import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '~/db/client.server';
import type { SmsGateway } from '~/integrations/sms/sms';
import type { ProductPhotoStore } from './product-photos';
import type { AuditActor } from '~/models/audit.server';
import { activeSession, type ActiveSession } from '~/models/staff-sessions.server';
import { NO_BACK_OFFICE_ROLES, can, isStaffRole, type Permission } from '~/core/staff-roles';
import { readCookie } from '~/shared/cookies';
import type { AdminError } from '~/shared/admin-contract';

// What every admin route shares: its dependencies, the session cookie, and the check that a
// request comes from a logged-in staff member whose role has the route's permission.

export interface AdminDeps {
  db: Database;
  /** The shop's public origin: links in answers, the Origin rule, the cookie's Secure flag. */
  siteUrl: string;
  /** The key TOTP secrets are encrypted with (models/staff-secrets.server.ts, from AUTH_SECRET). */
  totpKey: Buffer;
  /** The clock (tests move it: idle and absolute timeouts, TOTP steps, caps). */
  now: () => Date;
  /** The SMS gateway: back-in-stock SMS after a cancel, a fitting or a stock change gives stock back. */
  sms: SmsGateway;
  /** Product photos through the image pipeline (issue #30); without it uploads are refused. */
  productPhotos?: ProductPhotoStore;
}

/**
 * The session cookie: `__Host-vitrina_staff` when the shop is on https (Secure, Path=/, no
 * Domain: the prefix makes browsers insist on all three), `vitrina_staff` on plain http (a
 * developer's machine, tests), where a Secure cookie would not be sent back. HttpOnly and
 * SameSite=Strict either way; a session cookie (no Max-Age): the server's timeouts end it.
 */
export function staffCookie(siteUrl: string): { name: string; secure: boolean } {
  const secure = siteUrl.startsWith('https://');
  return { name: secure ? '__Host-vitrina_staff' : 'vitrina_staff', secure };
}

export function setStaffCookie(reply: FastifyReply, siteUrl: string, token: string | null): void {
  const { name, secure } = staffCookie(siteUrl);
  const parts = [`${name}=${token ?? ''}`, 'Path=/', 'HttpOnly', 'SameSite=Strict'];
  if (secure) parts.push('Secure');
  if (token === null) parts.push('Max-Age=0');
  void reply.header('set-cookie', parts.join('; '));
}

export function readStaffCookie(req: FastifyRequest, siteUrl: string): string | null {
  const header = req.headers.cookie;
  const token = readCookie(Array.isArray(header) ? header.join('; ') : header, staffCookie(siteUrl).name);
  return token && /^[A-Za-z0-9_-]{20,100}$/.test(token) ? token : null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The staff member and session of an admin call (set by requireStaff). */
    staffSession: ActiveSession | null;
  }
}

const SESSION_ENDED: Record<'none' | 'idle' | 'expired', string> = {
  none: 'Войдите в панель управления',
  idle: 'Сеанс завершён: 30 минут без действий. Войдите снова',
  expired: 'Сеанс завершён: прошло 12 часов со входа. Войдите снова',
};

/**
 * preHandler of an admin route: 401 without a live session, 403 (logged) when the role lacks
 * `permission`. Every refusal of authorization is logged at `warn` with who and what.
 */
export function requireStaff(deps: AdminDeps, permission: Permission | null) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const token = readStaffCookie(req, deps.siteUrl);
    const found = token
      ? await activeSession(deps.db, { token, now: deps.now() })
      : ({ ok: false, reason: 'none' } as const);
    if (!found.ok) {
      if (found.reason !== 'none') setStaffCookie(reply, deps.siteUrl, null);
      req.log.info({ admin: 'unauthenticated', reason: found.reason, url: req.routeOptions.url }, 'admin: no session');
      return reply.code(401).send({ error: SESSION_ENDED[found.reason] } satisfies AdminError);
    }
    if (isStaffRole(found.active.staff.role) && NO_BACK_OFFICE_ROLES.has(found.active.staff.role)) {
      req.log.warn(
        { admin: 'forbidden', staffId: found.active.staff.id, role: found.active.staff.role },
        'admin: role without back office',
      );
      return reply.code(403).send({ error: 'Недостаточно прав для этого действия' } satisfies AdminError);
    }
    req.staffSession = found.active;
    if (permission && !can(found.active.staff.role, permission)) {
      req.log.warn(
        {
          admin: 'forbidden',
          staffId: found.active.staff.id,
          role: found.active.staff.role,
          permission,
          method: req.method,
          url: req.routeOptions.url,
        },
        'admin: permission refused',
      );
      return reply.code(403).send({ error: 'Недостаточно прав для этого действия' } satisfies AdminError);
    }
  };
}

/** The audit log's actor of a request that passed requireStaff. */
export function staffActor(req: FastifyRequest): AuditActor {
  const active = req.staffSession;
  if (!active) throw new Error('staffActor: no staff session on this request (requireStaff first)');
  return {
    kind: 'staff',
    staffId: active.staff.id,
    label: active.staff.email,
    sessionId: active.session.id,
    ip: req.ip,
    requestId: String(req.id),
  };
}
