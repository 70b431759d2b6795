// What the review routes need from the image pipeline (server/review-photos.server.ts): photos
// checked as real images within the size limits and re-encoded before anything is stored, then
// written as media files; and those files removed again when the review is not stored.

export interface PreparedPhoto {
  bytes: Uint8Array;
  width: number;
  height: number;
}

export type PreparedPhotos = { ok: true; photos: PreparedPhoto[] } | { ok: false; error: string };

export interface ReviewPhotoStore {
  /** Each upload decoded and checked (a real JPEG, PNG or WebP, size and pixel limits), re-encoded without its metadata. */
  prepare(uploads: readonly Uint8Array[]): Promise<PreparedPhotos>;
  /** Written under the media root (write, then rename); the media paths in order. */
  store(photos: readonly PreparedPhoto[]): Promise<{ path: string; width: number; height: number }[]>;
  /** Files of a review that was not stored, or of photos replaced. */
  remove(paths: readonly string[]): Promise<void>;
}
