import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { loadSharp } from '~/media/sharp';
import type { PreparedPhoto } from '~/api/reviews/photos';
import { MAX_INPUT_PIXELS } from './images.server';

// Photos sent by people (shoppers' review photos, staff's product photos) through the image
// pipeline's checks, in one place: the upload must decode as one of the allowed formats within
// the image server's pixel limit (MAX_INPUT_PIXELS: a "pixel bomb" of a small file and a huge
// canvas is refused before it is decoded; decoding stops at the first error), within its byte
// limit and above its smallest side; it is turned upright, scaled down to the longest side and
// re-encoded as JPEG, which drops its metadata (a phone's GPS position). Written files are new
// random paths (write, then rename), never reused: the image cache keys on the path.

export interface PhotoRules {
  /** sharp's format names: 'jpeg', 'png', 'webp', 'heif' (AVIF). */
  formats: ReadonlySet<string>;
  maxBytes: number;
  minSide: number;
  maxSide: number;
  quality: number;
  texts: { notImage: string; tooLarge: string; tooSmall: string; tooManyPixels?: string };
}

export type PreparedOne = { ok: true; photo: PreparedPhoto } | { ok: false; error: string };

export async function preparePhoto(upload: Uint8Array, rules: PhotoRules): Promise<PreparedOne> {
  if (upload.byteLength > rules.maxBytes) return { ok: false, error: rules.texts.tooLarge };
  const sharp = await loadSharp();
  try {
    // The header alone (no pixels decoded), so a pixel bomb is named as one; decoding keeps the limit.
    const meta = await sharp(upload, { limitInputPixels: false }).metadata();
    const input = sharp(upload, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' });
    if (!meta.format || !rules.formats.has(meta.format) || !meta.width || !meta.height)
      return { ok: false, error: rules.texts.notImage };
    // A HEIF container that is not AVIF (a phone's HEIC) is not one of the formats staff are told of.
    if (meta.format === 'heif' && meta.compression !== 'av1') return { ok: false, error: rules.texts.notImage };
    if (meta.width * meta.height > MAX_INPUT_PIXELS)
      return { ok: false, error: rules.texts.tooManyPixels ?? rules.texts.notImage };
    if (Math.min(meta.width, meta.height) < rules.minSide) return { ok: false, error: rules.texts.tooSmall };
    const { data, info } = await input
      .rotate()
      .resize({ width: rules.maxSide, height: rules.maxSide, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: rules.quality })
      .toBuffer({ resolveWithObject: true });
    return { ok: true, photo: { bytes: data, width: info.width, height: info.height } };
  } catch {
    return { ok: false, error: rules.texts.notImage };
  }
}

/** Writes each photo at `<dir>/<24 hex>.jpg` under the media root; on a failure removes what it wrote and throws. */
export async function writePhotos(
  mediaRoot: string,
  dir: string,
  photos: readonly PreparedPhoto[],
): Promise<{ path: string; width: number; height: number }[]> {
  const written: { path: string; width: number; height: number }[] = [];
  try {
    for (const p of photos) {
      const mediaPath = `${dir}/${randomBytes(12).toString('hex')}.jpg`;
      const file = path.join(mediaRoot, mediaPath);
      await fs.mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      await fs.writeFile(tmp, p.bytes);
      await fs.rename(tmp, file);
      written.push({ path: mediaPath, width: p.width, height: p.height });
    }
  } catch (err) {
    await removePhotos(
      mediaRoot,
      dir,
      written.map((w) => w.path),
    );
    throw err;
  }
  return written;
}

/** Removes files this module wrote under `dir` (any other path is left alone). */
export async function removePhotos(mediaRoot: string, dir: string, paths: readonly string[]): Promise<void> {
  const own = new RegExp(`^${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/[0-9a-f]{24}\\.jpg$`);
  await Promise.all(paths.filter((p) => own.test(p)).map((p) => fs.rm(path.join(mediaRoot, p), { force: true })));
}
