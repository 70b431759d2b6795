import type { FastifyRequest } from 'fastify';
import type { Database } from '~/db/client.server';
import { runAdminChange } from '~/models/admin-change.server';
import type { AuditEntry } from '~/models/audit.server';
import { scriptActor } from './accounts.routes.server';

// The staff scripts' changes (`npm run stock`, `order`, `return`, `jobs`) in the audit log, as the
// "script" actor (the script's name from X-Vitrina-Script). Each change runs through
// runAdminChange (models/admin-change.server.ts), as the back office's do: the model function in
// ONE transaction with its audit row, so there is never a row without its change nor a change
// without its row (a failed audit insert rolls the change back and the call answers 500). A
// refusal (the envelope's data null) rolls back and writes no row. What must wait for the commit
// (the waiting list's SMS, the jobs brought forward) is `afterCommit`.

/** The envelope every staff path answers with. */
export interface ScriptEnvelope {
  data: unknown;
  errors: Record<string, string>;
  warnings: string[];
}

export interface ScriptOutcome<A extends ScriptEnvelope> {
  /** The answer; `data: null` is a refusal (everything rolls back, no audit row). */
  answer: A;
  /** Work after the commit, never on a rollback; a failure is logged, the change stands. */
  afterCommit?: () => Promise<void>;
}

/**
 * One staff script's change: `change` runs in a transaction with the audit row `entry` (its
 * `after` the answer's data). Answers the envelope; `afterCommit` has run when it returns.
 */
export async function scriptChange<A extends ScriptEnvelope>(
  db: Database,
  req: FastifyRequest,
  entry: Omit<AuditEntry, 'after'>,
  change: (tx: Database) => Promise<ScriptOutcome<A>>,
  now?: Date,
): Promise<A> {
  const done = await runAdminChange({
    db,
    actor: scriptActor(req),
    idempotency: null,
    ...(now ? { now } : {}),
    change: async (tx) => {
      const { answer, afterCommit } = await change(tx);
      if (answer.data === null || answer.data === undefined) return { ok: false, status: 200, body: answer };
      return {
        ok: true,
        body: answer,
        audit: { ...entry, after: answer.data },
        ...(afterCommit ? { afterCommit } : {}),
      };
    },
  });
  if (done.afterCommit) {
    try {
      await done.afterCommit();
    } catch (err) {
      req.log.error({ err, action: entry.action }, 'staff script: work after the commit failed');
    }
  }
  return done.body as A;
}

/** The audit reason of a script's note: trimmed, at most 500 characters, null when empty. */
export const noteReason = (note: string | null | undefined): string | null =>
  note && note.trim() !== '' ? note.trim().slice(0, 500) : null;
