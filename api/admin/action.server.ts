import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Database } from '~/db/client.server';
import { runAdminChange, type AdminChangeOutcome } from '~/models/admin-change.server';
import type { AuditActor } from '~/models/audit.server';
import type { StaffRow } from '~/models/staff-sessions.server';
import type { Permission } from '~/core/staff-roles';
import { findRefusedText, CONTROL_CHARACTER_ERROR } from '~/core/input-text';
import { lastValue } from '~/api/http.server';
import type { AdminError } from '~/shared/admin-contract';
import { requireStaff, staffActor, type AdminDeps } from './context.server';
import { defineRoute } from '~/api/route.server';
import { adminDoc } from './openapi';

// The two ways an admin route is written (docs/back-office.md "Writing an admin route"):
//
// - adminRead: a GET (a list or one record), checked for its permission, query and params by zod.
// - adminChange: a state change. A named POST (`orders/:id/status`, `staff/:id/role`) or a PATCH of
//   plain fields. It checks the permission, parses params and body, takes the Idempotency-Key
//   header (required on POST: a repeat gets the first answer, the key with another body 422), and
//   runs the route's `run` — which calls ONE model function with the transaction it is given —
//   in ONE transaction with the audit row(s) it returns (models/admin-change.server.ts). A refusal
//   from the model rolls everything back. `afterCommit` work (SMS, letters) runs after the commit.
//
// Both are api/route.server.ts defineRoute underneath: the OpenAPI document is made from the same
// schemas (api/admin/openapi.ts adds the permission, the Idempotency-Key and the admin answers).

const ru = z.locales.ru();

/** The value by the schema, or null after answering 400 (`{ error, field }`, Russian). */
export function parseAdmin<T extends z.ZodType>(schema: T, value: unknown, reply: FastifyReply): z.infer<T> | null {
  const refused = findRefusedText(value);
  if (refused) {
    void reply.code(400).send({ error: CONTROL_CHARACTER_ERROR, field: refused.join('.') } satisfies AdminError);
    return null;
  }
  const parsed = schema.safeParse(value ?? {}, { error: ru.localeError });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.join('.') ?? '';
  void reply.code(400).send({
    error: `Неверный запрос: ${field ? `«${field}»: ` : ''}${issue?.message ?? 'ошибка'}`,
    ...(field ? { field } : {}),
  } satisfies AdminError);
  return null;
}

/** A path parameter that is a record's id. */
export const IdParams = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });

/** A query value as one string (the last of repeated ones), or absent. */
const one = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (lastValue(v) === '' ? undefined : lastValue(v)), schema);
const intQuery = (min: number, max: number) =>
  one(
    z
      .string()
      .regex(/^\d{1,9}$/)
      .transform(Number)
      .pipe(z.number().int().min(min).max(max)),
  );

/**
 * A list's query: `sort` (one of `sorts`), `order` (asc|desc), `offset`, `limit` (1–100, 25 by
 * default) and the list's own filters. Unknown parameters are refused (400), so a misspelt filter
 * never silently lists everything.
 */
export function listQuery<S extends string, F extends z.ZodRawShape>(
  sorts: readonly [S, ...S[]],
  defaults: { sort: S; order: 'asc' | 'desc' },
  filters: F,
) {
  return z
    .object({
      sort: one(z.enum(sorts).default(defaults.sort)),
      order: one(z.enum(['asc', 'desc']).default(defaults.order)),
      offset: intQuery(0, 10_000_000).default(0),
      limit: intQuery(1, 100).default(25),
      ...filters,
    })
    .strict();
}
/** A filter's query value: one string. */
export const filterValue = <T extends z.ZodType>(schema: T) => one(schema.optional());

export function adminRead<P extends z.ZodType, Q extends z.ZodType>(
  app: FastifyInstance,
  deps: AdminDeps,
  def: {
    url: string;
    summary: string;
    permission: Permission;
    params?: P;
    query?: Q;
    response: z.ZodType;
    /** The answer's media type when it is not JSON (a CSV export). */
    contentType?: string;
    handler: (ctx: {
      params: z.infer<P>;
      query: z.infer<Q>;
      req: FastifyRequest;
      reply: FastifyReply;
      staff: StaffRow;
    }) => Promise<unknown>;
  },
): void {
  defineRoute(app, {
    method: 'GET',
    url: def.url,
    summary: def.summary,
    ...adminDoc({
      permission: def.permission,
      response: def.response,
      ...(def.contentType ? { contentType: def.contentType } : {}),
    }),
    ...(def.params ? { params: def.params } : {}),
    ...(def.query ? { query: def.query } : {}),
    parse: parseAdmin,
    preHandler: requireStaff(deps, def.permission),
    handler: ({ params, query }, req, reply) =>
      def.handler({
        params: params as z.infer<P>,
        query: query as z.infer<Q>,
        req,
        reply,
        staff: (req.staffSession as NonNullable<typeof req.staffSession>).staff,
      }),
  });
}

export interface ChangeContext<P, B> {
  /** The transaction: pass it as `db` to the one model function. */
  tx: Database;
  params: P;
  body: B;
  actor: AuditActor;
  /** Who acts (their row as of the session check). */
  staff: StaffRow;
  /** The request's time (the injected clock). */
  now: Date;
  req: FastifyRequest;
}

const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,200}$/;

/** The route's answer for a model's refusal: `{ error, field }` with its status, nothing changed. */
export const refusal = (r: { status: number; field: string; error: string }): AdminChangeOutcome => ({
  ok: false,
  status: r.status,
  body: { error: r.error, field: r.field } satisfies AdminError,
});

export function adminChange<P extends z.ZodType, B extends z.ZodType>(
  app: FastifyInstance,
  deps: AdminDeps,
  def: {
    method: 'POST' | 'PATCH';
    url: string;
    summary: string;
    permission: Permission;
    params?: P;
    body: B;
    response: z.ZodType;
    run: (ctx: ChangeContext<z.infer<P>, z.infer<B>>) => Promise<AdminChangeOutcome>;
    /** Files instead of JSON (the body the multipart parser made; docBody is what OpenAPI shows). */
    multipart?: { docBody: z.ZodType };
    /** A larger body than the server's default (a CSV file as JSON text), bytes. */
    bodyLimit?: number;
  },
): void {
  const keyRule = def.method === 'POST' ? 'required' : 'optional';
  const route = `${def.method} ${app.prefix}${def.url}`;
  defineRoute(app, {
    method: def.method,
    url: def.url,
    summary: def.summary,
    ...adminDoc({ permission: def.permission, response: def.response, idempotencyKey: keyRule }),
    ...(def.multipart ? { bodyType: 'multipart/form-data' as const, docBody: def.multipart.docBody } : {}),
    ...(def.params ? { params: def.params } : {}),
    ...(def.bodyLimit ? { bodyLimit: def.bodyLimit } : {}),
    body: def.body,
    parse: parseAdmin,
    preHandler: requireStaff(deps, def.permission),
    handler: async (input, req, reply) => {
      const params = input.params as z.infer<P>;
      const body = input.body as z.infer<B>;
      const header = req.headers['idempotency-key'];
      const key = typeof header === 'string' ? header : undefined;
      if (key !== undefined && !KEY_PATTERN.test(key))
        return reply.code(400).send({
          error: 'Неверный заголовок Idempotency-Key: 8–200 латинских букв, цифр, «.», «_», «:», «-»',
        } satisfies AdminError);
      if (key === undefined && keyRule === 'required')
        return reply.code(400).send({ error: 'Нужен заголовок Idempotency-Key' } satisfies AdminError);
      const actor = staffActor(req);
      const staff = (req.staffSession as NonNullable<typeof req.staffSession>).staff;
      const now = deps.now();
      const requestHash = crypto
        .createHash('sha256')
        .update(JSON.stringify([route, params, body]))
        .digest('base64url');
      const answer = await runAdminChange({
        db: deps.db,
        actor,
        now,
        idempotency: key ? { scope: `staff:${staff.id}`, key, staffId: staff.id, route, requestHash } : null,
        change: (tx) => def.run({ tx, params, body, actor, staff, now, req }),
      });
      req.log.info(
        { admin: 'change', route, staffId: staff.id, status: answer.status, replayed: answer.replayed },
        'admin: state change',
      );
      if (answer.afterCommit) {
        try {
          await answer.afterCommit();
        } catch (err) {
          req.log.error({ err, route }, 'admin: work after the commit failed');
        }
      }
      if (answer.replayed) void reply.header('idempotent-replayed', 'true');
      return reply.code(answer.status).send(answer.body);
    },
  });
}
