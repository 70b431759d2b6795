import { eq } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { pageMeta, redirects } from '~/db/schema';
import type { PageMetaEntry } from '~/core/page-meta';

// Page metadata and staff redirects: both keyed by core/redirects.ts canonicalPagePath.

/** The stored metadata entry of a canonical path, or null. */
export async function getPageMetaEntry({ db, path }: { db: Database; path: string }): Promise<PageMetaEntry | null> {
  const [row] = await db.select().from(pageMeta).where(eq(pageMeta.path, path)).limit(1);
  if (!row) return null;
  return {
    title: row.title,
    description: row.description,
    keywords: row.keywords,
    ...(row.seoBottom ? { seoBottom: row.seoBottom } : {}),
    ...(row.seoDescription ? { seoDescription: row.seoDescription } : {}),
  };
}

/** The redirect staff stored for a canonical path, or null. */
export async function getStoredRedirect({
  db,
  path,
}: {
  db: Database;
  path: string;
}): Promise<{ toUrl: string; status: number } | null> {
  const [row] = await db
    .select({ toUrl: redirects.toUrl, status: redirects.status })
    .from(redirects)
    .where(eq(redirects.fromPath, path))
    .limit(1);
  return row ?? null;
}
