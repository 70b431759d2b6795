import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { PreparedPhoto, PreparedPhotos, ReviewPhotoStore } from '~/api/reviews/photos';
import { loadSharp } from '~/media/sharp';
import { MAX_INPUT_PIXELS } from './images.server';

// Review photos (issue #32) through the image pipeline's checks: the upload must decode as a
// JPEG, PNG or WebP within the image server's pixel limit (MAX_INPUT_PIXELS, decoding stops at the
// first error) and within REVIEW_PHOTO_MAX_BYTES; it is turned upright, scaled to at most 2000 px
// and re-encoded as JPEG, which drops its metadata (a phone's GPS position among it). All photos
// are checked before any is written; files are written then renamed; the routes remove them again
// when the review's transaction does not commit, so nothing is ever half stored.

export const REVIEW_PHOTO_MAX_BYTES = 10 * 1024 * 1024;
export const REVIEW_PHOTO_MIN_SIDE = 200;
const MAX_SIDE = 2000;
const FORMATS = new Set(['jpeg', 'png', 'webp']);

export const PHOTO_TEXT = {
  notImage: 'Фотография не читается: загрузите JPEG, PNG или WebP',
  tooLarge: 'Фотография больше 10 МБ',
  tooSmall: `Фотография слишком маленькая: нужно не меньше ${REVIEW_PHOTO_MIN_SIDE} пикселей по каждой стороне`,
} as const;

export function createReviewPhotoStore({ mediaRoot }: { mediaRoot: string }): ReviewPhotoStore {
  return {
    async prepare(uploads): Promise<PreparedPhotos> {
      const photos: PreparedPhoto[] = [];
      const sharp = await loadSharp();
      for (const upload of uploads) {
        if (upload.byteLength > REVIEW_PHOTO_MAX_BYTES) return { ok: false, error: PHOTO_TEXT.tooLarge };
        try {
          const input = sharp(upload, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' });
          const meta = await input.metadata();
          if (!meta.format || !FORMATS.has(meta.format) || !meta.width || !meta.height)
            return { ok: false, error: PHOTO_TEXT.notImage };
          if (Math.min(meta.width, meta.height) < REVIEW_PHOTO_MIN_SIDE)
            return { ok: false, error: PHOTO_TEXT.tooSmall };
          const { data, info } = await input
            .rotate()
            .resize({ width: MAX_SIDE, height: MAX_SIDE, fit: 'inside', withoutEnlargement: true })
            .jpeg({ quality: 85 })
            .toBuffer({ resolveWithObject: true });
          photos.push({ bytes: data, width: info.width, height: info.height });
        } catch {
          return { ok: false, error: PHOTO_TEXT.notImage };
        }
      }
      return { ok: true, photos };
    },
    async store(photos) {
      const written: { path: string; width: number; height: number }[] = [];
      try {
        for (const p of photos) {
          const mediaPath = `reviews/${randomBytes(12).toString('hex')}.jpg`;
          const file = path.join(mediaRoot, mediaPath);
          await fs.mkdir(path.dirname(file), { recursive: true });
          const tmp = `${file}.${process.pid}.tmp`;
          await fs.writeFile(tmp, p.bytes);
          await fs.rename(tmp, file);
          written.push({ path: mediaPath, width: p.width, height: p.height });
        }
      } catch (err) {
        await this.remove(written.map((w) => w.path));
        throw err;
      }
      return written;
    },
    async remove(paths) {
      await Promise.all(
        paths
          .filter((p) => /^reviews\/[0-9a-f]{24}\.jpg$/.test(p))
          .map((p) => fs.rm(path.join(mediaRoot, p), { force: true })),
      );
    },
  };
}
