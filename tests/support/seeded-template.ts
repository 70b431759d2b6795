// Vitest global setup of the API and browser suites: migrate and seed one database per run, so
// each test file's shop starts from a copy instead of creating, migrating and seeding its own
// (PGlite's empty cluster alone took most of a file's ~12 s start). On PostgreSQL the copy is a
// template database; on PGlite a dump of the data directory in a temporary file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '~/db/client.server';
import { seedDatabase } from '~/db/seed/seed.server';

/** Read by tests/support/server.ts; absent outside a Vitest run (scripts, benches). */
export const TEMPLATE_ENV = { pglite: 'VITRINA_TEST_PGLITE_DUMP', postgres: 'VITRINA_TEST_PG_TEMPLATE' } as const;
/** The products the default test shop is seeded with. */
export const TEMPLATE_PRODUCTS = 180;

async function adminQuery(adminUrl: string, query: string): Promise<void> {
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(query);
  } finally {
    await admin.end();
  }
}

export default async function setup(): Promise<() => Promise<void>> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const name = `vitrina_template_${process.pid}`;
    await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
    await adminQuery(adminUrl, `create database ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 2 });
    await database.migrate();
    await seedDatabase(database.db, { products: TEMPLATE_PRODUCTS });
    await database.close();
    process.env[TEMPLATE_ENV.postgres] = name;
    return async () => {
      await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
    };
  }
  const database = await openDatabase({ pgliteDir: 'memory://' });
  await database.migrate();
  await seedDatabase(database.db, { products: TEMPLATE_PRODUCTS });
  const dump = await database.dump!();
  await database.close();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-template-'));
  const file = path.join(dir, 'pglite.tar');
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  process.env[TEMPLATE_ENV.pglite] = file;
  return async () => {
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
