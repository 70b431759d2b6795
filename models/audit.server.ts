import { and, asc, count, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { auditEvents } from '~/db/schema';

// The audit log (issue #29): who changed what, written by the change's own transaction (pass the
// transaction as `db`), so a change and its row commit or roll back together. Rows are only
// inserted: a trigger of migration 0021 refuses updates and deletes.

/** Who acts: a staff member in a session, a staff script (STAFF_TOKEN), or the shop itself (jobs). */
export type AuditActor =
  | { kind: 'staff'; staffId: number; label: string; sessionId: number | null; ip: string; requestId: string }
  | { kind: 'script' | 'system'; label: string; ip: string; requestId: string };

export interface AuditEntry {
  /** 'staff.create', 'order.status', 'offer.stock', …: `<entity>.<what>`. */
  action: string;
  entityType: string;
  entityId: string | number;
  before?: unknown;
  after?: unknown;
  reason?: string | null;
}

export async function writeAudit(db: Database, actor: AuditActor, entry: AuditEntry, at?: Date): Promise<number> {
  const [row] = await db
    .insert(auditEvents)
    .values({
      ...(at ? { at } : {}),
      actorKind: actor.kind,
      staffId: actor.kind === 'staff' ? actor.staffId : null,
      actorLabel: actor.label,
      sessionId: actor.kind === 'staff' ? actor.sessionId : null,
      ip: actor.ip,
      action: entry.action,
      entityType: entry.entityType,
      entityId: String(entry.entityId),
      before: entry.before ?? null,
      after: entry.after ?? null,
      reason: entry.reason ?? null,
      requestId: actor.requestId,
    })
    .returning({ id: auditEvents.id });
  if (!row) throw new Error('audit row not written');
  return row.id;
}

/** Many rows of one change at once (a bulk action, a file import: one row per product), 1 000 per statement. */
export async function writeAuditMany(
  db: Database,
  actor: AuditActor,
  entries: readonly AuditEntry[],
  at?: Date,
): Promise<void> {
  for (let i = 0; i < entries.length; i += 1000)
    await db.insert(auditEvents).values(
      entries.slice(i, i + 1000).map((entry) => ({
        ...(at ? { at } : {}),
        actorKind: actor.kind,
        staffId: actor.kind === 'staff' ? actor.staffId : null,
        actorLabel: actor.label,
        sessionId: actor.kind === 'staff' ? actor.sessionId : null,
        ip: actor.ip,
        action: entry.action,
        entityType: entry.entityType,
        entityId: String(entry.entityId),
        before: entry.before ?? null,
        after: entry.after ?? null,
        reason: entry.reason ?? null,
        requestId: actor.requestId,
      })),
    );
}

export interface AuditFilter {
  staffId?: number | undefined;
  actorKind?: 'staff' | 'script' | 'system' | undefined;
  entityType?: string | undefined;
  entityId?: string | undefined;
  action?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
}

export type AuditRow = typeof auditEvents.$inferSelect;

/** A page of the log, newest first unless asked otherwise, and how many rows match. */
export async function listAudit({
  db,
  filter,
  order = 'desc',
  offset,
  limit,
}: {
  db: Database;
  filter: AuditFilter;
  order?: 'asc' | 'desc';
  offset: number;
  limit: number;
}): Promise<{ rows: AuditRow[]; total: number }> {
  const where: SQL[] = [];
  if (filter.staffId !== undefined) where.push(eq(auditEvents.staffId, filter.staffId));
  if (filter.actorKind !== undefined) where.push(eq(auditEvents.actorKind, filter.actorKind));
  if (filter.entityType !== undefined) where.push(eq(auditEvents.entityType, filter.entityType));
  if (filter.entityId !== undefined) where.push(eq(auditEvents.entityId, filter.entityId));
  if (filter.action !== undefined) where.push(eq(auditEvents.action, filter.action));
  if (filter.from !== undefined) where.push(gte(auditEvents.at, filter.from));
  if (filter.to !== undefined) where.push(lt(auditEvents.at, filter.to));
  const condition = where.length ? and(...where) : undefined;
  const by =
    order === 'asc' ? [asc(auditEvents.at), asc(auditEvents.id)] : [desc(auditEvents.at), desc(auditEvents.id)];
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(auditEvents)
      .where(condition)
      .orderBy(...by)
      .offset(offset)
      .limit(limit),
    db.select({ n: count() }).from(auditEvents).where(condition),
  ]);
  return { rows, total: Number(totals[0]?.n ?? 0) };
}

/** The actions that appear in the log (the admin's action filter). */
export async function auditActions(db: Database): Promise<string[]> {
  const rows = await db
    .selectDistinct({ action: auditEvents.action })
    .from(auditEvents)
    .orderBy(asc(auditEvents.action));
  return rows.map((r) => r.action);
}

/** One record's history (an order's, an offer's, a customer's page): its audit rows, oldest first, at most `limit`. */
export async function entityAudit(
  db: Database,
  entityType: string,
  entityId: string | number,
  limit = 200,
): Promise<AuditRow[]> {
  return db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.entityType, entityType), eq(auditEvents.entityId, String(entityId))))
    .orderBy(asc(auditEvents.at), asc(auditEvents.id))
    .limit(limit);
}
