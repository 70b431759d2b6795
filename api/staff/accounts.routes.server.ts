import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Database } from '~/db/client.server';
import { STAFF_ROLES } from '~/core/staff-roles';
import { runAdminChange, type AdminChangeOutcome } from '~/models/admin-change.server';
import type { AuditActor } from '~/models/audit.server';
import {
  createStaff,
  findStaffByEmail,
  resetStaffTotp,
  setStaffDisabled,
  staffAuditView,
  type StaffRow,
} from '~/models/staff.server';
import { lastValue } from '~/api/http.server';
import { actionRoute } from '~/api/route.server';
import { staffDoc } from './staff-doc';
import { setupUrl } from '~/api/admin/mappers';
import { ScriptStaffResponse } from '~/shared/admin-contract';

// `npm run staff` (scripts/staff.ts) on the running shop, with STAFF_TOKEN: 'create' an account
// (its one-time link to set the password and enrol the authenticator), 'reset-totp' (a lost
// authenticator: a new link) and 'disable'. The way in for the first admin, and the way back for
// the last one. Each change is one transaction with its audit row, the actor "script".

/** The audit log's actor of a staff script: its name from X-Vitrina-Script ('npm run staff'). */
export function scriptActor(req: FastifyRequest): AuditActor {
  const header = req.headers['x-vitrina-script'];
  const name = typeof header === 'string' && /^[a-z][a-z-]{0,19}$/.test(header) ? header : 'script';
  return { kind: 'script', label: `npm run ${name}`, ip: req.ip, requestId: String(req.id) };
}

const text = (max: number) => z.preprocess(lastValue, z.string().trim().max(max));
const EmailBody = z.object({ email: text(254).pipe(z.string().min(3)) });
const CreateBody = EmailBody.extend({
  role: z.preprocess(
    lastValue,
    z.enum(STAFF_ROLES, { error: 'роль: admin, manager, warehouse, content или exchange' }),
  ),
  name: z.preprocess((v) => lastValue(v) ?? '', z.string().trim().max(120)),
});

type Answer = ScriptStaffResponse;
const failed = (field: string, error: string): Answer => ({ data: null, errors: { [field]: error }, warnings: [] });

export async function staffAccountRoutes(
  app: FastifyInstance,
  { db, siteUrl, now }: { db: Database; siteUrl: string; now: () => Date },
): Promise<void> {
  /** One change through runAdminChange; a refusal answers the envelope's errors. */
  const run = async (
    req: FastifyRequest,
    change: (tx: Database, at: Date) => Promise<AdminChangeOutcome>,
  ): Promise<Answer> => {
    const at = now();
    const answer = await runAdminChange({
      db,
      actor: scriptActor(req),
      idempotency: null,
      now: at,
      change: (tx) => change(tx, at),
    });
    req.log.info({ staffScript: 'accounts', status: answer.status }, 'staff script: account change');
    return answer.body as Answer;
  };
  const refused = (r: { status: number; field: string; error: string }): AdminChangeOutcome => ({
    ok: false,
    status: r.status,
    body: failed(r.field, r.error),
  });
  const noSuch = (email: string): AdminChangeOutcome => ({
    ok: false,
    status: 404,
    body: failed('email', `Нет сотрудника ${email}`),
  });

  /** The envelope of a change to `row`: its one-time link when one was made. */
  const answered = (
    row: StaffRow,
    {
      setupToken,
      sessionsEnded = 0,
      warnings = [],
    }: { setupToken?: string; sessionsEnded?: number; warnings?: string[] },
  ): Answer => ({
    data: {
      id: row.id,
      email: row.email,
      role: row.role,
      disabled: row.disabled,
      setup_url: setupToken ? setupUrl(siteUrl, setupToken) : null,
      setup_expires_at: setupToken && row.setupExpiresAt ? row.setupExpiresAt.toISOString() : null,
      sessions_ended: sessionsEnded,
    },
    errors: {},
    warnings,
  });
  /** The audit entry of a change to an account: the row before and after (no hash, secret or token). */
  const entry = (action: string, before: StaffRow | null, after: StaffRow, sessionsEnded = 0) => ({
    action,
    entityType: 'staff',
    entityId: after.id,
    ...(before ? { before: staffAuditView(before) } : {}),
    after: { ...staffAuditView(after), ...(sessionsEnded ? { sessions_ended: sessionsEnded } : {}) },
  });

  actionRoute(app, {
    url: '/staff/accounts/',
    summary:
      '`npm run staff`: create a back-office account (its one-time link to set the password and enrol the authenticator), reset-totp (a new link) or disable',
    ...staffDoc(
      ScriptStaffResponse,
      'The account after the change, with its link when one was made; or the fields refused',
    ),
    actions: {
      create: {
        schema: CreateBody,
        run: (input: z.infer<typeof CreateBody>, req) =>
          run(req, async (tx, at) => {
            const r = await createStaff(tx, { email: input.email, name: input.name, role: input.role, now: at });
            if (!r.ok) return refused(r);
            return {
              ok: true,
              body: answered(r.staff, { setupToken: r.setupToken }),
              audit: entry('staff.create', null, r.staff),
            };
          }),
      },
      'reset-totp': {
        schema: EmailBody,
        run: (input: z.infer<typeof EmailBody>, req) =>
          run(req, async (tx, at) => {
            const found = await findStaffByEmail(tx, input.email);
            if (!found) return noSuch(input.email);
            const r = await resetStaffTotp(tx, { id: found.id, now: at });
            if (!r.ok) return refused(r);
            const warnings = r.after.disabled ? ['Сотрудник отключён: ссылка заработает, когда его включат'] : [];
            return {
              ok: true,
              body: answered(r.after, { setupToken: r.setupToken, sessionsEnded: r.sessionsEnded, warnings }),
              audit: entry('staff.reset_totp', r.before, r.after, r.sessionsEnded),
            };
          }),
      },
      disable: {
        schema: EmailBody,
        run: (input: z.infer<typeof EmailBody>, req) =>
          run(req, async (tx, at) => {
            const found = await findStaffByEmail(tx, input.email);
            if (!found) return noSuch(input.email);
            const r = await setStaffDisabled(tx, { id: found.id, disabled: true, now: at });
            if (!r.ok) return refused(r);
            return {
              ok: true,
              body: answered(r.after, { sessionsEnded: r.sessionsEnded }),
              audit: entry('staff.disable', r.before, r.after, r.sessionsEnded),
            };
          }),
      },
    },
  });
}
