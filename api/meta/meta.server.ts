import type { Database } from '~/db/client.server';
import { resolvePageMeta } from '~/core/page-meta';
import { canonicalPagePath, isExternalUrl } from '~/core/redirects';
import { DEFAULT_META, PRODUCT_META_TEMPLATE } from '~/content/page-meta';
import type { PageMeta, RedirectResponse } from '~/shared/contract';
import { getPageMetaEntry, getStoredRedirect } from '~/models/page-meta.server';
import { readSiteSettings } from '~/models/site-settings.server';
import type { SiteSettings } from '~/shared/site-settings';
import { UNANNOUNCED_CHANGE_TTL_MS, versionedMemo } from './data-version.server';

// Every page asks for its metadata and every unknown address for a redirect: both are kept in
// process until the data version changes (page metadata and redirects are part of it).
const metaMemo = versionedMemo<PageMeta>(2000);
const redirectMemo = versionedMemo<RedirectResponse['redirect']>(2000);
// Every page's shell shows the site's texts (banner, shops, chat): one read per data version.
const settingsMemo = versionedMemo<SiteSettings>(1, { ttlMs: UNANNOUNCED_CHANGE_TTL_MS });

/** The site's texts staff edit (issue #30), today's defaults while nothing is stored. */
export function getSiteSettings({ db }: { db: Database }): Promise<SiteSettings> {
  return settingsMemo(db, 'storefront', async () => (await readSiteSettings(db)).value);
}

export async function getPageMeta({
  db,
  path,
  productName,
}: {
  db: Database;
  path: string;
  productName?: string | null;
}): Promise<PageMeta> {
  const key = canonicalPagePath(path);
  return metaMemo(db, JSON.stringify([key, productName]), async () => {
    const entry = await getPageMetaEntry({ db, path: key });
    return resolvePageMeta({
      path: key,
      entries: entry ? { [key]: entry } : {},
      defaults: DEFAULT_META,
      productTemplate: PRODUCT_META_TEMPLATE,
      product: productName === undefined ? null : { name: productName },
    });
  });
}

/** A redirect stored by the shop's staff for this path (SPEC §2), or null; the query plays no part in the lookup. */
export async function findRedirect({
  db,
  path,
}: {
  db: Database;
  path: string;
}): Promise<RedirectResponse['redirect']> {
  const key = canonicalPagePath(path);
  return redirectMemo(db, key, async () => {
    const row = await getStoredRedirect({ db, path: key });
    if (!row) return null;
    return { location: row.toUrl, status: row.status, external: isExternalUrl(row.toUrl) };
  });
}
