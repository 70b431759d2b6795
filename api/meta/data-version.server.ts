import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '~/db/client.server';
import { CONTENT_DIR } from '~/api/content/store.server';

// One fingerprint of everything a guest page shows that can change while the process runs
// (issue #13). The guest page cache and the in-process memos of what every page needs (menu,
// page metadata, redirects) invalidate on it. Every fresh read is published to one holder per
// database, so a memo never holds data older than the version the page cache stores pages under.

/** How old the published fingerprint may be before a memo lookup reads it again. */
export const DATA_VERSION_CHECK_MS = 1000;

/**
 * How long a memo of data a page shows keeps an answer whatever the version says: the bound on
 * changes no version announces (a price edited by hand in SQL), as PAGE_CACHE_TTL_SECONDS's
 * default is for the page cache.
 */
export const UNANNOUNCED_CHANGE_TTL_MS = 60_000;

/**
 * The catalogue version (bumped on stock, availability, orders that sell a size out and the
 * seed), page metadata and staff redirects (hashed: whoever edits them is seen without a version
 * row), and the content files' names, sizes and modification times. Always reads afresh.
 */
export async function readPageVersion(db: Database, contentDir: string = CONTENT_DIR): Promise<string> {
  const startedAt = performance.now();
  const [row] = await queryRows<{
    catalog: unknown;
    meta: string;
    redirects: string;
    content: string;
    settings: string;
  }>(
    db,
    sql`select
      (select value from app_state where key = 'catalog_version') as catalog,
      (select count(*)::text || ':' || coalesce(sum(hashtext(m::text)::bigint), 0)::text from page_meta m) as meta,
      (select count(*)::text || ':' || coalesce(sum(hashtext(r::text)::bigint), 0)::text from redirects r) as redirects,
      (select count(*)::text || ':' || coalesce(sum(version::bigint * 1000003 + id), 0)::text || ':' || coalesce(max(updated_at)::text, '') from content_entries) as content,
      (select count(*)::text || ':' || coalesce(sum(version), 0)::text from site_settings) as settings`,
  );
  const content = await contentFingerprint(contentDir);
  const value = `${JSON.stringify(row?.catalog ?? 0)}|${row?.meta ?? ''}|${row?.redirects ?? ''}|${row?.content ?? ''}|${row?.settings ?? ''}|${content}`;
  if (contentDir === CONTENT_DIR) publish(db, value, startedAt);
  return value;
}

async function contentFingerprint(dir: string): Promise<string> {
  const hash = crypto.createHash('sha1');
  for (const sub of ['pages', 'blog']) {
    let names: string[];
    try {
      names = (await fs.readdir(path.join(dir, sub))).filter((n) => n.endsWith('.md')).sort();
    } catch {
      continue;
    }
    for (const name of names) {
      try {
        const stat = await fs.stat(path.join(dir, sub, name));
        hash.update(`${sub}/${name}:${stat.size}:${stat.mtimeMs}\n`);
      } catch {
        // Removed between the listing and the stat: the next read sees it gone.
      }
    }
  }
  return hash.digest('base64url').slice(0, 16);
}

interface Published {
  value: string;
  /** When the read that produced it started: a slower, older read never replaces a newer one. */
  startedAt: number;
  /** Bumped on every change of value, so memos can tell newer from older. */
  seq: number;
}

const published = new WeakMap<Database, Published>();
const reading = new WeakMap<Database, Promise<unknown>>();

function publish(db: Database, value: string, startedAt: number): void {
  const cur = published.get(db);
  if (cur && cur.startedAt > startedAt) return;
  published.set(db, { value, startedAt, seq: cur && cur.value === value ? cur.seq : (cur?.seq ?? 0) + 1 });
}

/**
 * The latest fingerprint of db, read again when older than DATA_VERSION_CHECK_MS (one read at a
 * time). As in the page cache, the read starts in the background a quarter of the interval early,
 * so under steady traffic a lookup does not wait for it.
 */
export async function currentDataVersion(db: Database): Promise<Published> {
  const cur = published.get(db);
  const age = cur ? performance.now() - cur.startedAt : Infinity;
  if (cur && age < DATA_VERSION_CHECK_MS) {
    if (age >= DATA_VERSION_CHECK_MS * 0.75) void readAgain(db).catch(() => {});
    return cur;
  }
  await readAgain(db);
  const next = published.get(db);
  if (!next) throw new Error('data version not published');
  return next;
}

function readAgain(db: Database): Promise<unknown> {
  let read = reading.get(db);
  if (!read) {
    read = readPageVersion(db).finally(() => reading.delete(db));
    reading.set(db, read);
  }
  return read;
}

/**
 * A memo of answers that depend only on their key and the data version: kept in this process
 * until the version changes (then all of them go), at most maxEntries (oldest out first) and,
 * with ttlMs, no longer than that (the bound on changes no version announces, as the page
 * cache's time to live). Failed computations are not kept. Callers must not mutate what they get.
 */
export function versionedMemo<T>(
  maxEntries: number,
  { ttlMs = Infinity, now = Date.now }: { ttlMs?: number; now?: () => number } = {},
): (db: Database, key: string, compute: () => Promise<T>) => Promise<T> {
  const states = new WeakMap<Database, { seq: number; entries: Map<string, { value: Promise<T>; at: number }> }>();
  return async (db, key, compute) => {
    const version = await currentDataVersion(db);
    let state = states.get(db);
    if (!state || state.seq < version.seq) {
      state = { seq: version.seq, entries: new Map() };
      states.set(db, state);
    } else if (state.seq > version.seq) {
      // A caller that read an older version than the memo already holds: answer without keeping.
      return compute();
    }
    const entries = state.entries;
    const hit = entries.get(key);
    if (hit && now() - hit.at < ttlMs) return hit.value;
    entries.delete(key);
    const value = compute();
    const entry = { value, at: now() };
    value.catch(() => {
      if (entries.get(key) === entry) entries.delete(key);
    });
    if (entries.size >= maxEntries) {
      const oldest = entries.keys().next().value;
      if (oldest !== undefined) entries.delete(oldest);
    }
    entries.set(key, entry);
    return value;
  };
}
