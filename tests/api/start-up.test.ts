import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { migrationsUpToDate, queryRows } from '~/db/client.server';
import { appState, pageMeta } from '~/db/schema';
import { fixturesFingerprint, seedDatabase } from '~/db/seed/seed.server';
import { PAGE_META } from '~/content/page-meta';
import { setUpTestShop } from '~/tests/support/server';

// What a restart on an existing database does before it listens (issue #33): the migrations are
// checked, not run, and the seed does nothing while its fixtures are those on record.
const shop = setUpTestShop();
const db = () => shop.database.db;

const homeTitle = async () =>
  (await db().select({ title: pageMeta.title }).from(pageMeta).where(eq(pageMeta.path, '/')))[0]?.title;
const recordedFixtures = async () =>
  ((await db().select().from(appState).where(eq(appState.key, 'seed')))[0]?.value as { fixtures?: string }).fixtures;

describe('a restart on a seeded database', () => {
  it("skips the seed's fixtures while their fingerprint is on record, and makes sure of them once when it differs", async () => {
    expect(await recordedFixtures()).toBe(fixturesFingerprint());
    await db().update(pageMeta).set({ title: 'Изменено в базе' }).where(eq(pageMeta.path, '/'));

    // The same code as the seed's: nothing written.
    expect(await seedDatabase(db(), { products: 180 })).toEqual({ skipped: true, products: 180 });
    expect(await homeTitle()).toBe('Изменено в базе');

    // Seeded by other code (a deploy changed the page metadata, or a database from before).
    await db()
      .update(appState)
      .set({ value: sql`jsonb_set(${appState.value}, '{fixtures}', '"older"')` })
      .where(eq(appState.key, 'seed'));
    expect(await seedDatabase(db(), { products: 180 })).toEqual({ skipped: true, products: 180 });
    expect(await homeTitle()).toBe(PAGE_META['/']?.title);
    expect(await recordedFixtures()).toBe(fixturesFingerprint());
  });

  it('finds the migrations up to date only while every one of the journal is on record, the oldest as much as the newest', async () => {
    expect(await migrationsUpToDate(db())).toBe(true);
    const [oldest] = await queryRows<{ at: string }>(
      db(),
      sql`select min(created_at)::text as at from drizzle.__drizzle_migrations`,
    );
    const at = Number(oldest?.at);
    await db().execute(sql`update drizzle.__drizzle_migrations set created_at = ${at - 1} where created_at = ${at}`);
    try {
      expect(await migrationsUpToDate(db())).toBe(false);
    } finally {
      await db().execute(sql`update drizzle.__drizzle_migrations set created_at = ${at} where created_at = ${at - 1}`);
    }
    expect(await migrationsUpToDate(db())).toBe(true);
  });
});
