import type { PreparedPhoto } from '~/api/reviews/photos';

// What the catalogue's photo routes need from the image pipeline (server/product-photos.server.ts):
// uploads checked and re-encoded before anything is written, then written under new random media
// paths (the image cache keys on the path and takes it as never changing), and removed again when
// the change does not commit or the photo is removed.

export interface ProductPhotoStore {
  /** The largest file accepted, in bytes; the most files in one upload; the formats, as staff read them. */
  limits: { maxBytes: number; maxFiles: number; formats: string[] };
  /** Every upload checked (a real image of an allowed format, bytes, pixels, smallest side); the first refusal names its file. */
  prepare(
    uploads: readonly { name: string; bytes: Uint8Array }[],
  ): Promise<{ ok: true; photos: PreparedPhoto[] } | { ok: false; error: string }>;
  store(photos: readonly PreparedPhoto[]): Promise<{ path: string; width: number; height: number }[]>;
  remove(paths: readonly string[]): Promise<void>;
}
