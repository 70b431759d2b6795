import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Database } from './client.server';
import { queryRows } from './query.server';

// Drizzle's own migrator applies a migration only when its journal time (`when`) is newer than
// the newest time recorded in the database. This project's journal times are not in the
// journal's order (0006's is later than those of 0007-0031, and 0031's earlier than 0030's:
// migrations made on branches, merged and renumbered), so a database migrated by one version
// skipped, when the shop was upgraded, every later migration with an older time, and the shop
// started on tables that did not exist. This migrator applies every migration whose time is not
// on record, in the journal's order, and records it as Drizzle does (its hash, created_at = its
// time), so the table stays Drizzle's and drizzle-kit still reads it.

export interface Migration {
  /** The file's name without .sql, e.g. 0020_stock_moves. */
  tag: string;
  /** The journal's `when`: what the database records as created_at. It names the migration. */
  when: number;
  /** The file's statements, split where drizzle-kit marks a breakpoint. */
  statements: string[];
  /** SHA-256 of the file, as Drizzle records it. */
  hash: string;
}

/** The journal's entries in its order. Throws when two share a time (one would never run). */
export function readJournal(folder: string): { tag: string; when: number }[] {
  const journal = JSON.parse(fs.readFileSync(path.join(folder, 'meta/_journal.json'), 'utf8')) as {
    entries: { tag: string; when: number }[];
  };
  const seen = new Map<number, string>();
  for (const { tag, when } of journal.entries) {
    const other = seen.get(when);
    if (other) throw new Error(`Migrations ${other} and ${tag} have the same journal time ${when}`);
    seen.set(when, tag);
  }
  return journal.entries.map(({ tag, when }) => ({ tag, when }));
}

/** The journal's migrations with their statements, in its order. */
export function readMigrations(folder: string): Migration[] {
  return readJournal(folder).map(({ tag, when }) => {
    const text = fs.readFileSync(path.join(folder, `${tag}.sql`), 'utf8');
    return {
      tag,
      when,
      statements: text.split('--> statement-breakpoint'),
      hash: crypto.createHash('sha256').update(text).digest('hex'),
    };
  });
}

/** The journal times on record in `db` (none when it was never migrated). */
export async function appliedMigrationTimes(db: Database): Promise<Set<number>> {
  const [table] = await queryRows<{ t: string | null }>(
    db,
    sql`select to_regclass('drizzle.__drizzle_migrations')::text as t`,
  );
  if (!table?.t) return new Set();
  const applied = await queryRows<{ at: string | null }>(
    db,
    sql`select created_at::text as at from drizzle.__drizzle_migrations`,
  );
  return new Set(applied.map((r) => Number(r.at)));
}

/** Those of `migrations` not on record, in their order. */
export function pendingMigrations<M extends { when: number }>(
  migrations: readonly M[],
  applied: ReadonlySet<number>,
): M[] {
  return migrations.filter((m) => !applied.has(m.when));
}

/**
 * Applies every migration of `migrations` not on record, in order, each in a transaction of its
 * own with its record, and returns how many it applied. Not all in one transaction, as Drizzle's:
 * on PostgreSQL a migration that writes rows leaves constraint checks pending until its commit,
 * and a later one that alters the same table in that transaction fails ("pending trigger
 * events": 0020's opening stock moves, then 0025's foreign key on stock_moves, on any database
 * that had offers). A migration that fails leaves the ones before it applied; the next start goes
 * on from it. The caller keeps two processes from migrating one database at once (an advisory
 * lock on PostgreSQL).
 */
export async function applyMigrations(db: Database, migrations: readonly Migration[]): Promise<number> {
  await db.execute(sql`create schema if not exists drizzle`);
  await db.execute(
    sql`create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)`,
  );
  const pending = pendingMigrations(migrations, await appliedMigrationTimes(db));
  for (const migration of pending) {
    await db.transaction(async (tx) => {
      for (const statement of migration.statements) {
        try {
          await tx.execute(sql.raw(statement));
        } catch (error) {
          throw new Error(`Migration ${migration.tag} failed: ${(error as Error).message}`, { cause: error });
        }
      }
      await tx.execute(
        sql`insert into drizzle.__drizzle_migrations (hash, created_at) values (${migration.hash}, ${migration.when})`,
      );
    });
  }
  return pending.length;
}
