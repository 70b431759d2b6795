import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { siteSettings } from '~/db/schema';
import { siteSettingsOf, type SiteSettings } from '~/shared/site-settings';
import type { Refusal } from './content.server';

// The site's words that are not pages (issue #30): one JSON value under the key 'storefront'
// in site_settings. No row yet reads as today's texts at version 1, so the first save (with
// version 1) inserts it at version 2; every later save is conditional on the version the editor
// opened (two staff at once: the second is refused, nothing is lost). site_settings' versions
// are part of the data version (api/meta/data-version.server.ts): a save reaches guests within
// the page cache's bound.

export const SITE_SETTINGS_KEY = 'storefront';

export const SITE_SETTINGS_CONFLICT =
  'Тексты сайта уже изменил другой сотрудник, пока вы их редактировали. Обновите страницу: ваши правки не сохранены, скопируйте их перед обновлением';

export interface StoredSiteSettings {
  value: SiteSettings;
  version: number;
  updatedAt: Date | null;
}

export async function readSiteSettings(db: Database, { lock = false } = {}): Promise<StoredSiteSettings> {
  const q = db.select().from(siteSettings).where(eq(siteSettings.key, SITE_SETTINGS_KEY));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) return { value: siteSettingsOf(null), version: 1, updatedAt: null };
  return { value: siteSettingsOf(row.value), version: row.version, updatedAt: row.updatedAt };
}

/** A save of whole groups against the version the editor opened. */
export async function saveSiteSettings(
  db: Database,
  changes: Partial<SiteSettings>,
  version: number,
): Promise<{ ok: true; before: SiteSettings; after: SiteSettings; version: number } | Refusal> {
  const cur = await readSiteSettings(db, { lock: true });
  if (cur.version !== version) return { ok: false, status: 409, field: 'version', error: SITE_SETTINGS_CONFLICT };
  const after: SiteSettings = { ...cur.value, ...changes };
  if (cur.updatedAt === null) {
    const [row] = await db
      .insert(siteSettings)
      .values({ key: SITE_SETTINGS_KEY, value: after, version: version + 1 })
      .onConflictDoNothing()
      .returning();
    // Someone else's first save committed meanwhile.
    if (!row) return { ok: false, status: 409, field: 'version', error: SITE_SETTINGS_CONFLICT };
    return { ok: true, before: cur.value, after, version: row.version };
  }
  const [row] = await db
    .update(siteSettings)
    .set({ value: after, version: sql`${siteSettings.version} + 1`, updatedAt: sql`now()` })
    .where(and(eq(siteSettings.key, SITE_SETTINGS_KEY), eq(siteSettings.version, version)))
    .returning();
  if (!row) return { ok: false, status: 409, field: 'version', error: SITE_SETTINGS_CONFLICT };
  return { ok: true, before: cur.value, after, version: row.version };
}
