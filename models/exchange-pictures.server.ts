import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import type { OutputInfo } from 'sharp';
import { loadSharp } from '~/media/sharp';
import type { Database } from '~/db/client.server';
import { productPhotos } from '~/db/schema';
import { safeExchangeName } from '~/core/commerceml';

// Pictures of 1C's products (Картинка → import_files/…; issue #31, docs/exchange-1c.md). Each goes
// through the checks every upload gets (a real JPEG, PNG or WebP within the pixel limit, within
// EXCHANGE_MAX_PICTURE_MB), is turned upright, scaled to at most 2400 px and re-encoded as JPEG
// (no metadata), and is written at a new random media path: the image cache is keyed by the
// path, so a path never gets other content. A picture whose content (SHA-256) the product
// already has is not processed again: its row, path and size stay.

const MAX_SIDE = 2400;
/** The image server's decoding limit (server/images.server.ts MAX_INPUT_PIXELS; models may not import server/). */
const MAX_INPUT_PIXELS = 40_000_000;
const FORMATS = new Set(['jpeg', 'png', 'webp']);

export interface PictureContext {
  tx: Database;
  /** The session's folder, where 1C's import_files/ are. */
  exchangeDir: string;
  mediaRoot: string;
  maxBytes: number;
  warnings: string[];
  counts: Record<string, number>;
}

const bump = (c: Record<string, number>, key: string, by = 1) => {
  if (by) c[key] = (c[key] ?? 0) + by;
};

/** The product's photos become 1C's pictures, in 1C's order (none sent: its photos stay as they are). */
export async function attachPictures(
  ctx: PictureContext,
  product: { id: number; externalId: string; name: string },
  pictures: readonly string[],
): Promise<void> {
  if (pictures.length === 0) return;
  const { tx } = ctx;
  const existing = await tx
    .select()
    .from(productPhotos)
    .where(eq(productPhotos.productId, product.id))
    .orderBy(asc(productPhotos.position));
  const byHash = new Map(existing.filter((p) => p.sourceHash).map((p) => [p.sourceHash!, p]));

  const wanted: { hash: string; bytes: Buffer; name: string }[] = [];
  for (const picture of pictures) {
    const name = safeExchangeName(picture);
    const file = name ? path.join(ctx.exchangeDir, name) : null;
    const stat = file ? await fs.promises.stat(file).catch(() => null) : null;
    if (!file || !stat?.isFile()) {
      ctx.warnings.push(`Товар ${product.externalId}: картинка ${picture} не получена`);
      continue;
    }
    if (stat.size > ctx.maxBytes) {
      ctx.warnings.push(
        `Товар ${product.externalId}: картинка ${picture} больше ${Math.round(ctx.maxBytes / 1048576)} МБ, не принята`,
      );
      continue;
    }
    const bytes = await fs.promises.readFile(file);
    const hash = crypto.createHash('sha256').update(bytes).digest('hex');
    if (!wanted.some((w) => w.hash === hash)) wanted.push({ hash, bytes, name: picture });
  }
  if (wanted.length === 0) return;
  if (
    existing.length === wanted.length &&
    existing.every((p, i) => p.sourceHash === wanted[i]!.hash && p.position === i + 1)
  ) {
    bump(ctx.counts, 'pictures_unchanged', wanted.length);
    return;
  }

  const rows: (typeof productPhotos.$inferInsert)[] = [];
  for (const w of wanted) {
    const same = byHash.get(w.hash);
    if (same) {
      rows.push({
        productId: product.id,
        position: 0,
        path: same.path,
        alt: same.alt,
        width: same.width,
        height: same.height,
        sourceHash: w.hash,
      });
      bump(ctx.counts, 'pictures_unchanged');
      continue;
    }
    let encoded: { data: Buffer; info: OutputInfo };
    try {
      const sharp = await loadSharp();
      const input = sharp(w.bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' });
      const meta = await input.metadata();
      if (!meta.format || !FORMATS.has(meta.format) || !meta.width || !meta.height) throw new Error('format');
      encoded = await input
        .rotate()
        .resize({ width: MAX_SIDE, height: MAX_SIDE, fit: 'inside', withoutEnlargement: true })
        .jpeg({ quality: 85 })
        .toBuffer({ resolveWithObject: true });
    } catch {
      ctx.warnings.push(`Товар ${product.externalId}: ${w.name} не картинка JPEG, PNG или WebP, не принята`);
      continue;
    }
    const mediaPath = `products/1c/${crypto.randomBytes(12).toString('hex')}.jpg`;
    const target = path.join(ctx.mediaRoot, mediaPath);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    const tmp = `${target}.${process.pid}.tmp`;
    await fs.promises.writeFile(tmp, encoded.data);
    await fs.promises.rename(tmp, target);
    rows.push({
      productId: product.id,
      position: 0,
      path: mediaPath,
      alt: product.name,
      width: encoded.info.width,
      height: encoded.info.height,
      sourceHash: w.hash,
    });
    bump(ctx.counts, 'pictures_processed');
  }
  if (rows.length === 0) return;
  await tx.delete(productPhotos).where(eq(productPhotos.productId, product.id));
  await tx.insert(productPhotos).values(rows.map((r, i) => ({ ...r, position: i + 1 })));
}
