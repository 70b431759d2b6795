import { eq } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { productPhotos } from '~/db/schema';

/** How to draw a generated demo photo (stored with it), or undefined when the path is unknown. */
export async function getPhotoArt({ db, path }: { db: Database; path: string }): Promise<unknown> {
  const [row] = await db
    .select({ art: productPhotos.art })
    .from(productPhotos)
    .where(eq(productPhotos.path, path))
    .limit(1);
  return row?.art;
}
