import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type PgModule from 'pg';
import { sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema';
import { queryRows } from './query.server';
import {
  appliedMigrationTimes,
  applyMigrations,
  pendingMigrations,
  readJournal,
  readMigrations,
} from './migrate.server';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** Throws when the database cannot answer. */
  ping(): Promise<void>;
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** PGlite only: the whole data directory as a tarball, to open copies of it fast (tests). */
  dump?(): Promise<Blob>;
  /** PGlite only: the data directory was made by copying `pgliteTemplateDir` at this open. */
  fromTemplate?: boolean;
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Whether every migration of the journal is on record: the journal file and one small query,
 * where applying reads and hashes every file and opens a transaction. A restart's usual case.
 */
export async function migrationsUpToDate(db: Database): Promise<boolean> {
  return pendingMigrations(readJournal(migrationsFolder), await appliedMigrationTimes(db)).length === 0;
}

/** Applies the migrations not on record; when any were, refreshes planner statistics (PGlite has no autovacuum). */
async function migrateAndAnalyze(db: Database): Promise<void> {
  if ((await applyMigrations(db, readMigrations(migrationsFolder))) > 0) await db.execute(sql`analyze`);
}
// Any constant works; it only has to be the same in every process migrating this database.
const MIGRATION_LOCK_ID = 7_311_001;

export interface OpenDatabaseOptions {
  /** postgres:// URL of a real server; without it an embedded PGlite is used. */
  databaseUrl?: string;
  /** Folder for PGlite's files; 'memory://' keeps it in memory (tests). */
  pgliteDir?: string;
  poolSize?: number;
  /** A PGlite data directory dump (`dumpDataDir`) to start from instead of an empty cluster. */
  pgliteLoadDataDir?: Blob;
  /**
   * A closed PGlite data directory copied to `pgliteDir` when that is missing or empty, instead
   * of creating an empty cluster (initdb: seconds of CPU). Ignored when it does not exist.
   */
  pgliteTemplateDir?: string;
  /**
   * PGlite's buffer pool (`shared_buffers`, e.g. '32MB'). Postgres sets the whole pool up when it
   * starts, and under WebAssembly that costs about 4.5 ms a megabyte here: PGlite's own default of
   * 128 MB was 0.55 s of every start. Pages beyond the pool come from the operating system's
   * file cache.
   */
  pgliteSharedBuffers?: string;
}

export const DEFAULT_PGLITE_SHARED_BUFFERS = '32MB';

let pgliteModules: ReturnType<typeof importPgliteModules> | null = null;

async function importPgliteModules() {
  const [{ PGlite }, { pg_trgm }, { drizzle }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('drizzle-orm/pglite'),
  ]);
  return { PGlite, pg_trgm, drizzle };
}

/**
 * Loads the embedded database's modules (once). The server awaits this before importing its own
 * modules, so that PGlite's start (its files read, its WebAssembly compiled on other threads)
 * runs beside that loading rather than behind it.
 */
export function loadPgliteModules(): ReturnType<typeof importPgliteModules> {
  pgliteModules ??= importPgliteModules();
  return pgliteModules;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.poolSize ?? 10);
  return openPglite(
    options.pgliteDir ?? 'memory://',
    options.pgliteLoadDataDir,
    options.pgliteTemplateDir,
    options.pgliteSharedBuffers ?? DEFAULT_PGLITE_SHARED_BUFFERS,
  );
}

/**
 * Copies `template` to `dir` when `dir` is missing or empty and `template` is a data directory;
 * true if it did. The copy is made beside `dir` and renamed into place, so a copy cut short is
 * never taken for a database. Asynchronous: the files are copied on libuv's threads while the
 * process goes on loading (some 40 MB: seconds of a busy disk).
 */
async function copyTemplate(template: string | undefined, dir: string): Promise<boolean> {
  if (!template || !fs.existsSync(path.join(template, 'PG_VERSION'))) return false;
  if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0) return false;
  const partial = `${dir}.copying-${process.pid}`;
  await fs.promises.rm(partial, { recursive: true, force: true });
  await copyDirectory(template, partial);
  await fs.promises.rm(dir, { recursive: true, force: true });
  await fs.promises.rename(partial, dir);
  return true;
}

/**
 * Copies a folder's files in a worker thread, one after another with `copyFileSync`: the copy
 * goes on on the other core whatever the main thread is doing. Copied from the main thread's
 * event loop (eight `fs.promises.copyFile` at a time on libuv's threads), the next file waited
 * for the main thread each time, which at a fresh start is busy loading the server and then
 * starting PGlite: the copy of the demo database's 1 260 files took 0.7–0.9 s there against
 * 0.13 s alone. (`fs.promises.cp`, which walks and copies one file after another in JavaScript,
 * took 0.9 s alone.)
 */
async function copyDirectory(from: string, to: string): Promise<void> {
  const entries = fs.readdirSync(from, { recursive: true, withFileTypes: true });
  const relative = (entry: fs.Dirent) => path.relative(from, path.join(entry.parentPath, entry.name));
  fs.mkdirSync(to, { recursive: true });
  for (const entry of entries)
    if (entry.isDirectory()) fs.mkdirSync(path.join(to, relative(entry)), { recursive: true });
  const files = entries.filter((entry) => entry.isFile()).map(relative);
  const { Worker } = await import('node:worker_threads');
  await new Promise<void>((resolve, reject) => {
    const worker = new Worker(COPY_WORKER, { eval: true, workerData: { from, to, files } });
    worker.once('error', reject);
    worker.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`copying ${from} to ${to}: the worker exited with ${code}`)),
    );
  });
}

/** The copying worker's code (CommonJS, as `eval` workers are): copies `files` from `from` to `to`. */
const COPY_WORKER = `
const { workerData } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');
const { from, to, files } = workerData;
for (const file of files)
  fs.copyFileSync(path.join(from, file), path.join(to, file), fs.constants.COPYFILE_FICLONE);
`;

async function openPostgres(url: string, poolSize: number): Promise<DatabaseHandle> {
  const { default: pg } = await import('pg');
  nodePostgres ??= { Pool: pg.Pool, Client: pg.Client, types: driverTypes(pg.types) };
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const pool = new pg.Pool({ connectionString: url, max: poolSize, application_name: 'vitrina' });
  // An idle client losing its server must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const db = drizzle(pool, { schema }) as unknown as Database;
  return {
    db,
    kind: 'postgres',
    async ping() {
      await pool.query('select 1');
    },
    async migrate() {
      if (await migrationsUpToDate(db)) return;
      // Several processes may start at once against one server: migrate one at a time.
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
        const locked = drizzle(client, { schema }) as unknown as Database;
        await migrateAndAnalyze(locked);
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => {});
        client.release();
      }
    },
    async close() {
      await pool.end();
    },
  };
}

async function openPglite(
  dir: string,
  loadDataDir: Blob | undefined,
  templateDir: string | undefined,
  sharedBuffers: string,
): Promise<DatabaseHandle> {
  const onDisk = !dir.startsWith('memory://');
  // The template copies while PGlite's modules load.
  const copying = onDisk && !loadDataDir ? copyTemplate(templateDir, dir) : Promise.resolve(false);
  copying.catch(() => {}); // awaited below, where a failure is thrown
  const { PGlite, pg_trgm, drizzle } = await loadPgliteModules();
  const fromTemplate = await copying;
  if (onDisk) fs.mkdirSync(dir, { recursive: true });
  const client = await PGlite.create({
    dataDir: dir,
    extensions: { pg_trgm },
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffers}`],
    ...(loadDataDir ? { loadDataDir } : {}),
  });
  const db = drizzle(client, { schema }) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    fromTemplate,
    async ping() {
      await db.execute(sql`select 1`);
    },
    async migrate() {
      if (await migrationsUpToDate(db)) return;
      // PGlite is single-process by construction: no lock needed.
      await migrateAndAnalyze(db);
    },
    async close() {
      if (!client.closed) await client.close();
    },
    async dump() {
      return client.dumpDataDir('none');
    },
  };
}

// In a module of its own so that the migrator (db/migrate.server.ts) reads rows the same way.
export { queryRows };

/** node-postgres's classes and the type parsers queryPrepared uses, once a PostgreSQL database is opened. */
let nodePostgres: {
  Pool: typeof PgModule.Pool;
  Client: typeof PgModule.Client;
  types: { getTypeParser: (oid: number, format?: string) => unknown };
} | null = null;

/**
 * The parsers Drizzle's node-postgres driver gives raw queries: dates, times and intervals (and
 * their arrays) as PostgreSQL's text, everything else as node-postgres parses it, so that a row
 * reads the same through queryPrepared as through queryRows.
 */
function driverTypes(types: typeof PgModule.types): { getTypeParser: (oid: number, format?: string) => unknown } {
  const asText = new Set([
    types.builtins.TIMESTAMPTZ,
    types.builtins.TIMESTAMP,
    types.builtins.DATE,
    types.builtins.INTERVAL,
    1231, // numeric[]
    1115, // timestamp[]
    1185, // timestamptz[]
    1187, // interval[]
    1182, // date[]
  ]);
  const text = (value: string) => value;
  return {
    getTypeParser: (oid, format) => (asText.has(oid) ? text : types.getTypeParser(oid, (format ?? 'text') as 'text')),
  };
}

/** Statement names by their text (the hot paths' statements are few, and each is built anew per call). */
const statementNames = new Map<string, string>();

/**
 * queryRows for the statements every order runs (the basket's catalogue, the rate counters,
 * the order's statement, the stock ledger's): on PostgreSQL each is sent as a named statement,
 * named after its text, so each connection parses and plans it once; later executions send
 * only its parameters, and PostgreSQL runs its plan once it has judged the generic plan as good
 * as the custom ones (its `plan_cache_mode = auto`; after five runs). Parsing and planning were
 * about half of PostgreSQL's CPU in a fast order (bench:orders, perf). Only for statements
 * whose text comes from a few shapes: a connection keeps every named statement until it
 * closes. PGlite runs it as queryRows.
 */
export async function queryPrepared<T>(db: Database, query: SQL): Promise<T[]> {
  const pg = nodePostgres;
  const { session, dialect } = db as unknown as {
    session: { client: unknown };
    dialect: { sqlToQuery(sql: SQL): { sql: string; params: unknown[] } };
  };
  const client = session.client;
  if (!pg || !(client instanceof pg.Pool || client instanceof pg.Client)) return queryRows<T>(db, query);
  const { sql: text, params } = dialect.sqlToQuery(query);
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `v_${crypto.createHash('sha1').update(text).digest('base64url').slice(0, 20)}`;
    if (statementNames.size > 1000) statementNames.clear();
    statementNames.set(text, name);
  }
  const result = await client.query<T & object>({ name, text, values: params, types: pg.types as never });
  return result.rows;
}
