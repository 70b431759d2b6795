import type { Database } from '~/db/client.server';
import { resolvePageMeta } from '~/core/page-meta';
import { canonicalPagePath, isExternalUrl } from '~/core/redirects';
import { DEFAULT_META, PRODUCT_META_TEMPLATE } from '~/content/page-meta';
import type { PageMeta, RedirectResponse } from '~/shared/contract';
import { getPageMetaEntry, getStoredRedirect } from '~/models/page-meta.server';

export async function getPageMeta({ db, path, productName }: { db: Database; path: string; productName?: string | null }): Promise<PageMeta> {
  const key = canonicalPagePath(path);
  const entry = await getPageMetaEntry({ db, path: key });
  return resolvePageMeta({
    path: key,
    entries: entry ? { [key]: entry } : {},
    defaults: DEFAULT_META,
    productTemplate: PRODUCT_META_TEMPLATE,
    product: productName === undefined ? null : { name: productName },
  });
}

/** A redirect stored by the shop's staff for this path (SPEC §2), or null; the query plays no part in the lookup. */
export async function findRedirect({ db, path }: { db: Database; path: string }): Promise<RedirectResponse['redirect']> {
  const row = await getStoredRedirect({ db, path: canonicalPagePath(path) });
  if (!row) return null;
  return { location: row.toUrl, status: row.status, external: isExternalUrl(row.toUrl) };
}
