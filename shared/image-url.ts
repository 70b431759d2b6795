// Addresses of resized product photos (SPEC §9 "Image densities 1 and 2, quality 80, formats
// webp, avif, jpg. Screen widths 320, 640, 768, 1024, 1280, 1536"; placeholder 10x10, quality
// 50, blur 3). Pure: the storefront builds srcsets with it, the image server validates with it.
//
// A photo lives at '/media/{path}' (the original); '/img/{width}/{path}' is that photo resized
// to `width` pixels wide, and '/img/placeholder/{path}' its 10-pixel blurred placeholder.

/** SPEC §9 screen widths. */
export const SCREEN_WIDTHS = [320, 640, 768, 1024, 1280, 1536] as const;
/** SPEC §9 pixel densities. */
export const IMAGE_DENSITIES = [1, 2] as const;
/** SPEC §9 quality of every resized image. */
export const IMAGE_QUALITY = 80;
/** SPEC §9 placeholder: 10x10, quality 50, blur 3. */
export const PLACEHOLDER = { width: 10, height: 10, quality: 50, blur: 3 } as const;

/** Every width the image server produces: each screen width at each density (320 … 3072). */
export const IMAGE_WIDTHS: readonly number[] = [
  ...new Set(SCREEN_WIDTHS.flatMap((w) => IMAGE_DENSITIES.map((d) => w * d))),
].sort((a, b) => a - b);

const WIDTH_SET: ReadonlySet<number> = new Set(IMAGE_WIDTHS);
const MEDIA_PREFIX = '/media/';
/** The shape of media paths (the media store has the last word): lower-case segments, an image extension. */
const MEDIA_PATH = /^(?:[a-z0-9][a-z0-9_-]*\/)*[a-z0-9_-]+\.(?:jpg|jpeg|png|webp)$/;
const MAX_MEDIA_PATH = 300;

export function isImageWidth(width: number): boolean {
  return WIDTH_SET.has(width);
}

/** The smallest produced width that is at least `width` (the largest one past the end). */
export function fitImageWidth(width: number): number {
  for (const w of IMAGE_WIDTHS) if (w >= width) return w;
  return IMAGE_WIDTHS[IMAGE_WIDTHS.length - 1] ?? width;
}

/** The address of an original under the media root: 'products/x/1.jpg' → '/media/products/x/1.jpg'. */
export function mediaUrl(path: string): string {
  return `${MEDIA_PREFIX}${path}`;
}

/** 'products/a/1.jpg' for '/media/products/a/1.jpg'; null for anything the image server does not resize. */
export function mediaPathOf(src: string): string | null {
  if (!src.startsWith(MEDIA_PREFIX)) return null;
  const rest = src.slice(MEDIA_PREFIX.length);
  return rest.length <= MAX_MEDIA_PATH && MEDIA_PATH.test(rest) ? rest : null;
}

/**
 * '/media/products/a/1.jpg' at 640 → '/img/640/products/a/1.jpg'. A width the server does not
 * produce is rounded up to one it does. External and non-/media URLs come back unchanged.
 */
export function imageUrl(src: string, width: number): string {
  const mediaPath = mediaPathOf(src);
  return mediaPath ? `/img/${fitImageWidth(width)}/${mediaPath}` : src;
}

/** The blurred 10-pixel placeholder of a /media photo, or null when there is none. */
export function placeholderUrl(src: string): string | null {
  const mediaPath = mediaPathOf(src);
  return mediaPath ? `/img/placeholder/${mediaPath}` : null;
}

/**
 * A srcset with width descriptors: '/img/320/p.jpg 320w, /img/640/p.jpg 640w, …'. Widths the
 * server does not produce are dropped. Undefined for photos that are not resized (external URLs).
 */
export function buildSrcSet(src: string, widths: readonly number[] = IMAGE_WIDTHS): string | undefined {
  const mediaPath = mediaPathOf(src);
  if (!mediaPath) return undefined;
  const list = [...new Set(widths)].filter(isImageWidth).sort((a, b) => a - b);
  if (list.length === 0) return undefined;
  return list.map((w) => `/img/${w}/${mediaPath} ${w}w`).join(', ');
}

/**
 * A srcset with density descriptors for an image shown `width` CSS pixels wide and no `sizes`:
 * '/img/320/p.jpg 1x, /img/640/p.jpg 2x'.
 */
export function buildDensitySrcSet(src: string, width: number): string | undefined {
  const mediaPath = mediaPathOf(src);
  if (!mediaPath) return undefined;
  return IMAGE_DENSITIES.map((d) => `/img/${fitImageWidth(width * d)}/${mediaPath} ${d}x`).join(', ');
}
