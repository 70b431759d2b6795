import type { PreparedPhoto, PreparedPhotos, ReviewPhotoStore } from '~/api/reviews/photos';
import { preparePhoto, removePhotos, writePhotos, type PhotoRules } from './photo-upload.server';

// Review photos (issue #32) through the image pipeline's checks (server/photo-upload.server.ts):
// a JPEG, PNG or WebP within REVIEW_PHOTO_MAX_BYTES and the pixel limit, at least
// REVIEW_PHOTO_MIN_SIDE on each side, re-encoded as JPEG of at most 2000 px without its metadata.
// All photos are checked before any is written; the routes remove them again when the review's
// transaction does not commit, so nothing is ever half stored.

export const REVIEW_PHOTO_MAX_BYTES = 10 * 1024 * 1024;
export const REVIEW_PHOTO_MIN_SIDE = 200;

export const PHOTO_TEXT = {
  notImage: 'Фотография не читается: загрузите JPEG, PNG или WebP',
  tooLarge: 'Фотография больше 10 МБ',
  tooSmall: `Фотография слишком маленькая: нужно не меньше ${REVIEW_PHOTO_MIN_SIDE} пикселей по каждой стороне`,
} as const;

const RULES: PhotoRules = {
  formats: new Set(['jpeg', 'png', 'webp']),
  maxBytes: REVIEW_PHOTO_MAX_BYTES,
  minSide: REVIEW_PHOTO_MIN_SIDE,
  maxSide: 2000,
  quality: 85,
  texts: PHOTO_TEXT,
};

export function createReviewPhotoStore({ mediaRoot }: { mediaRoot: string }): ReviewPhotoStore {
  return {
    async prepare(uploads): Promise<PreparedPhotos> {
      const photos: PreparedPhoto[] = [];
      for (const upload of uploads) {
        const one = await preparePhoto(upload, RULES);
        if (!one.ok) return one;
        photos.push(one.photo);
      }
      return { ok: true, photos };
    },
    store: (photos) => writePhotos(mediaRoot, 'reviews', photos),
    remove: (paths) => removePhotos(mediaRoot, 'reviews', paths),
  };
}
