import path from 'node:path';
import { openDatabase, type DatabaseHandle } from '~/db/client.server';

// What the bench scripts share: a database to measure on, thrown away afterwards.

export function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** PGlite in dataDir, or a fresh database on the PostgreSQL server of BENCH_DATABASE_URL (an admin URL). */
export async function openBenchDatabase(kind: string, dataDir: string, poolSize = 8): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
  if (kind === 'pglite') return { handle: await openDatabase({ pgliteDir: path.join(dataDir, 'pglite') }), drop: async () => {} };
  const admin = process.env.BENCH_DATABASE_URL;
  if (!admin) throw new Error('BENCH_DATABASE_URL is needed for postgres');
  const { default: pg } = await import('pg');
  const name = `vitrina_bench_${process.pid}_${Date.now().toString(36)}`;
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`drop database if exists ${name} with (force)`);
  await c.query(`create database ${name}`);
  await c.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    handle: await openDatabase({ databaseUrl: url.toString(), poolSize }),
    drop: async () => {
      const d = new pg.Client({ connectionString: admin });
      await d.connect();
      await d.query(`drop database if exists ${name} with (force)`);
      await d.end();
    },
  };
}
