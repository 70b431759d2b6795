import { and, eq } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { idempotencyKeys } from '~/db/schema';
import { writeAudit, writeAuditMany, type AuditActor, type AuditEntry } from './audit.server';

// One admin state change (issue #29): ONE model function in ONE transaction, with its audit
// row(s) and its Idempotency-Key in that same transaction. The key is claimed first (an insert
// that a second request with the same key waits on until the first commits or rolls back), so two
// requests at once with one key make one change and both get its answer. A refusal (the model's
// precondition failed) rolls everything back: no audit row, and the key stays free, so a corrected
// retry can succeed. A failed audit insert rolls the change back too.

/** What the model function decided, inside the transaction. */
export type AdminChangeOutcome =
  | {
      ok: true;
      /** The answer's HTTP status (default 200) and body, kept under the key for repeats. */
      status?: number;
      body: unknown;
      /** The audit row(s) of the change: at least one. */
      audit: AuditEntry | readonly AuditEntry[];
      /** Work after the commit (an SMS, a letter): never run when the change rolled back. */
      afterCommit?: () => Promise<void>;
      /** Undoes what the change did outside the database (files written) when the commit fails after all. */
      onRollback?: () => Promise<void>;
    }
  | { ok: false; status: number; body: unknown };

export interface IdempotencyClaim {
  /** 'staff:<id>' or 'script'. */
  scope: string;
  key: string;
  staffId: number | null;
  /** The route's pattern ('POST /staff/:id/role'). */
  route: string;
  /** SHA-256 of method, route, parameters and body (api/admin/action.server.ts). */
  requestHash: string;
}

export interface AdminChangeAnswer {
  status: number;
  body: unknown;
  /** The first answer given again for a repeated key. */
  replayed: boolean;
  /** Work to run now that the change committed (the caller runs it and logs a failure). */
  afterCommit?: () => Promise<void>;
}

/** Thrown inside the transaction to roll a refusal back; caught below. */
class Refused extends Error {
  constructor(readonly answer: { status: number; body: unknown }) {
    super('admin change refused');
  }
}

export const KEY_REUSED_BODY = { error: 'Этот ключ Idempotency-Key уже использован для другого запроса' };

export async function runAdminChange({
  db,
  actor,
  idempotency,
  change,
  now,
}: {
  db: Database;
  actor: AuditActor;
  idempotency: IdempotencyClaim | null;
  change: (tx: Database) => Promise<AdminChangeOutcome>;
  /** The audit row's time (the injected clock); the database's now() without it. */
  now?: Date;
}): Promise<AdminChangeAnswer> {
  let onRollback: (() => Promise<void>) | undefined;
  try {
    return await db.transaction(async (txn) => {
      const tx = txn as unknown as Database;
      if (idempotency) {
        const claimed = await tx
          .insert(idempotencyKeys)
          .values({ ...idempotency, status: 0, body: {}, ...(now ? { createdAt: now } : {}) })
          .onConflictDoNothing()
          .returning({ key: idempotencyKeys.key });
        if (claimed.length === 0) {
          const [first] = await tx
            .select()
            .from(idempotencyKeys)
            .where(and(eq(idempotencyKeys.scope, idempotency.scope), eq(idempotencyKeys.key, idempotency.key)));
          if (!first) throw new Error('idempotency key neither claimed nor found');
          if (first.route !== idempotency.route || first.requestHash !== idempotency.requestHash)
            return { status: 422, body: KEY_REUSED_BODY, replayed: false };
          return { status: first.status, body: first.body, replayed: true };
        }
      }
      const outcome = await change(tx);
      if (!outcome.ok) throw new Refused(outcome);
      onRollback = outcome.onRollback;
      const entries = Array.isArray(outcome.audit) ? outcome.audit : [outcome.audit as AuditEntry];
      if (entries.length === 0) throw new Error('an admin change must write its audit row');
      if (entries.length > 1) await writeAuditMany(tx, actor, entries, now);
      else for (const entry of entries) await writeAudit(tx, actor, entry, now);
      const status = outcome.status ?? 200;
      if (idempotency)
        await tx
          .update(idempotencyKeys)
          .set({ status, body: outcome.body as object })
          .where(and(eq(idempotencyKeys.scope, idempotency.scope), eq(idempotencyKeys.key, idempotency.key)));
      return {
        status,
        body: outcome.body,
        replayed: false,
        ...(outcome.afterCommit ? { afterCommit: outcome.afterCommit } : {}),
      };
    });
  } catch (err) {
    if (err instanceof Refused) return { ...err.answer, replayed: false };
    if (onRollback) await onRollback().catch(() => {});
    throw err;
  }
}
