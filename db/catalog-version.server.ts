import { eq, sql } from 'drizzle-orm';
import type { Database } from './client.server';
import { appState } from './schema';

// A counter every process can read cheaply: whoever changes the catalogue bumps it, and the
// derived listing index of each process rebuilds when it sees a new value.
const KEY = 'catalog_version';

export async function readCatalogVersion(db: Database): Promise<number> {
  const [row] = await db.select({ value: appState.value }).from(appState).where(eq(appState.key, KEY));
  return typeof row?.value === 'number' ? row.value : 0;
}

export async function bumpCatalogVersion(db: Database): Promise<void> {
  await db
    .insert(appState)
    .values({ key: KEY, value: 1 })
    .onConflictDoUpdate({
      target: appState.key,
      set: { value: sql`to_jsonb((${appState.value})::text::int + 1)`, updatedAt: sql`now()` },
    });
}
