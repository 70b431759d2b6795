import type { PreparedPhoto } from '~/api/reviews/photos';
import type { ProductPhotoStore } from '~/api/admin/product-photos';
import { preparePhoto, removePhotos, writePhotos, type PhotoRules } from './photo-upload.server';
import { MAX_INPUT_PIXELS } from './images.server';

// Product photos uploaded in the back office (issue #30): JPEG, PNG, WebP or AVIF of up to 15 MB
// each, 10 files at once, at least 400 px on each side, within the image server's pixel limit
// (server/photo-upload.server.ts checks them as review photos are checked). Each is re-encoded as a
// JPEG original of at most 3000 px under `products/u/<random>.jpg` in DATA_DIR/media, where the
// image pipeline (/img/…) reads originals and makes every width, format and blurred placeholder.

export const PRODUCT_PHOTO_MAX_BYTES = 15 * 1024 * 1024;
export const PRODUCT_PHOTO_MAX_FILES = 10;
export const PRODUCT_PHOTO_MIN_SIDE = 400;
const DIR = 'products/u';

const rules = (name: string): PhotoRules => ({
  formats: new Set(['jpeg', 'png', 'webp', 'heif']),
  maxBytes: PRODUCT_PHOTO_MAX_BYTES,
  minSide: PRODUCT_PHOTO_MIN_SIDE,
  maxSide: 3000,
  quality: 90,
  texts: {
    notImage: `Файл «${name}» не читается как фотография: загрузите JPEG, PNG, WebP или AVIF`,
    tooLarge: `Файл «${name}» больше 15 МБ`,
    tooSmall: `Фотография «${name}» слишком маленькая: нужно не меньше ${PRODUCT_PHOTO_MIN_SIDE} пикселей по каждой стороне`,
    tooManyPixels: `Фотография «${name}» больше ${MAX_INPUT_PIXELS / 1_000_000} мегапикселей: уменьшите её`,
  },
});

export function createProductPhotoStore({ mediaRoot }: { mediaRoot: string }): ProductPhotoStore {
  return {
    limits: {
      maxBytes: PRODUCT_PHOTO_MAX_BYTES,
      maxFiles: PRODUCT_PHOTO_MAX_FILES,
      formats: ['JPEG', 'PNG', 'WebP', 'AVIF'],
    },
    async prepare(uploads) {
      const photos: PreparedPhoto[] = [];
      for (const u of uploads) {
        const one = await preparePhoto(u.bytes, rules(u.name.slice(0, 80)));
        if (!one.ok) return one;
        photos.push(one.photo);
      }
      return { ok: true, photos };
    },
    store: (photos) => writePhotos(mediaRoot, DIR, photos),
    remove: (paths) => removePhotos(mediaRoot, DIR, paths),
  };
}
