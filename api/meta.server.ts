import { eq } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { pageMeta, redirects } from '~/db/schema';
import { resolvePageMeta, type PageMetaEntry } from '~/core/page-meta';
import { DEFAULT_META, PRODUCT_META_TEMPLATE } from '~/content/page-meta';
import { canonicalPagePath, isExternalUrl } from '~/core/redirects';
import type { PageMeta, RedirectResponse } from '~/shared/contract';

export async function getPageMeta({
  db,
  path,
  productName,
}: {
  db: Database;
  path: string;
  productName?: string | null;
}): Promise<PageMeta> {
  const key = canonicalPagePath(path.split(/[?#]/)[0] || '/');
  const [row] = await db.select().from(pageMeta).where(eq(pageMeta.path, key)).limit(1);
  const entries: Record<string, PageMetaEntry> = {};
  if (row) {
    entries[row.path] = {
      title: row.title,
      description: row.description,
      keywords: row.keywords,
      ...(row.seoBottom ? { seoBottom: row.seoBottom } : {}),
      ...(row.seoDescription ? { seoDescription: row.seoDescription } : {}),
    };
  }
  return resolvePageMeta({
    path,
    entries,
    defaults: DEFAULT_META,
    productTemplate: PRODUCT_META_TEMPLATE,
    product: productName === undefined ? null : { name: productName },
  });
}

/** A redirect stored by the shop's staff for this path (SPEC §2), or null. */
export async function findRedirect({ db, path }: { db: Database; path: string }): Promise<RedirectResponse['redirect']> {
  const from = canonicalPagePath(path.split('?')[0] ?? '/');
  const [row] = await db.select().from(redirects).where(eq(redirects.fromPath, from)).limit(1);
  if (!row) return null;
  return { location: row.toUrl, status: row.status, external: isExternalUrl(row.toUrl) };
}
