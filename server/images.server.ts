// The image server (SPEC §4 Image, §9): GET /img/{width}/{mediaPath} is a product photo resized
// to one of SPEC §9's widths, as AVIF, WebP or JPEG by the request's Accept header, and
// GET /img/placeholder/{mediaPath} its blurred 10×10 placeholder. Each variant is made once
// by sharp, written to the disk cache (write, then rename) and served from there afterwards.
//
// Bounded on purpose: only the widths of shared/image-url.ts, only media paths the media store
// accepts, never wider than the original, at most `maxConcurrent` sharp jobs at once (the rest
// queue, up to `maxQueue`, then 503), a pixel limit on inputs and a time limit on each job.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Sharp, SharpOptions } from 'sharp';
import { loadSharp, setSharpSettings } from '~/media/sharp';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { isMediaPath, type MediaStore } from './media.server';
import { IMAGE_QUALITY, isImageWidth, PLACEHOLDER } from '~/shared/image-url';

export type ImageFormat = 'avif' | 'webp' | 'jpeg';

export const IMAGE_CONTENT_TYPES: Readonly<Record<ImageFormat, string>> = {
  avif: 'image/avif',
  webp: 'image/webp',
  jpeg: 'image/jpeg',
};

/** Largest original accepted (40 megapixels, e.g. 5472×7296): a bigger file is refused before it is decoded. */
export const MAX_INPUT_PIXELS = 40_000_000;
/** AVIF encoder effort (0–9). Measured on 640-px variants: 2 is 3–20× faster than the default 4 for 0–25 % more bytes. */
export const AVIF_EFFORT = 2;
const JOB_TIMEOUT_SECONDS = 30;
const IMMUTABLE = 'public, max-age=31536000, immutable';
const INPUT: SharpOptions = { limitInputPixels: MAX_INPUT_PIXELS, sequentialRead: true, failOn: 'error' };

// ---------------------------------------------------------------------------------------------
// Pure parts, unit-tested in images.server.test.ts.

export type ImageRequest =
  { kind: 'resize'; width: number; mediaPath: string } | { kind: 'placeholder'; mediaPath: string };

export type ParsedImageRequest = { ok: true; request: ImageRequest } | { ok: false; status: 400; message: string };

/**
 * What `/img/{rest}` asks for. `rest` is '640/products/a/1.jpg' or 'placeholder/products/a/1.jpg'.
 * An unknown width or a media path of the wrong shape (traversal, backslashes, escapes, other
 * extensions, upper case) is a 400; whether the photo exists is for the media store to say.
 */
export function parseImageRequest(rest: string): ParsedImageRequest {
  const slash = rest.indexOf('/');
  if (slash === -1) return { ok: false, status: 400, message: 'Bad image path' };
  const head = rest.slice(0, slash);
  const mediaPath = rest.slice(slash + 1);
  if (!isMediaPath(mediaPath)) return { ok: false, status: 400, message: 'Bad media path' };
  if (head === 'placeholder') return { ok: true, request: { kind: 'placeholder', mediaPath } };
  const width = /^[1-9][0-9]{0,4}$/.test(head) ? Number(head) : NaN;
  if (!isImageWidth(width)) return { ok: false, status: 400, message: 'Unknown width' };
  return { ok: true, request: { kind: 'resize', width, mediaPath } };
}

/**
 * The format of `formats` the Accept header ranks highest (by q); on a tie, the earlier one in
 * `formats`. Only types named explicitly with a non-zero q count: wildcards (`image/*`, `*∕*`)
 * are sent by browsers without WebP or AVIF too. Nothing accepted: the last one (JPEG).
 * WebP comes before AVIF (SPEC §9 lists webp, avif, jpg): at the SPEC's quality 80 the shop's
 * photos come out about 40% smaller in WebP than in AVIF, and WebP decodes faster on a cheap phone.
 */
export function negotiateImageFormat(
  accept: string | undefined,
  formats: readonly ImageFormat[] = ['webp', 'avif', 'jpeg'],
): ImageFormat {
  const fallback = formats[formats.length - 1] ?? 'jpeg';
  if (!accept) return fallback;
  const quality = new Map<string, number>();
  for (const part of accept.slice(0, 2000).split(',')) {
    const [type = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    const value = q === undefined ? 1 : Number(q.slice(2));
    if (!(value > 0 && value <= 1)) continue;
    quality.set(type, Math.max(quality.get(type) ?? 0, value));
  }
  let best: ImageFormat | null = null;
  let bestQ = 0;
  for (const format of formats) {
    const q = quality.get(IMAGE_CONTENT_TYPES[format]) ?? 0;
    if (q > bestQ) {
      best = format;
      bestQ = q;
    }
  }
  return best ?? fallback;
}

/** Cache file of a variant, always inside `cacheDir` ('640/products/a/1.jpg.webp'). */
export function variantFile(cacheDir: string, bucket: string, mediaPath: string, format: ImageFormat): string {
  const root = path.resolve(cacheDir);
  const file = path.resolve(root, bucket, `${mediaPath}.${format}`);
  const rel = path.relative(root, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) throw new Error(`image cache path escapes the cache: ${mediaPath}`);
  return file;
}

// ---------------------------------------------------------------------------------------------
// A small FIFO limiter: at most `max` jobs run, at most `maxQueue` wait.

export class QueueFullError extends Error {
  constructor() {
    super('image queue full');
  }
}

export function createLimiter(max: number, maxQueue: number) {
  let running = 0;
  const waiting: Array<() => void> = [];
  return {
    get running() {
      return running;
    },
    get queued() {
      return waiting.length;
    },
    async run<T>(job: () => Promise<T>): Promise<T> {
      if (running < max) running++;
      else {
        if (waiting.length >= maxQueue) throw new QueueFullError();
        // A finishing job hands its slot straight over: `running` stays as it is.
        await new Promise<void>((resolve) => waiting.push(resolve));
      }
      try {
        return await job();
      } finally {
        const wake = waiting.shift();
        if (wake) wake();
        else running--;
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The service: variants on disk, made on demand.

export interface ImageServiceOptions {
  store: MediaStore;
  cacheDir: string;
  /** sharp jobs at once; others queue. Default 2. */
  maxConcurrent?: number;
  /** Jobs allowed to wait; beyond that requests get 503. Default 256. */
  maxQueue?: number;
}

export interface ImageService {
  /** The cache file of the variant if it is on disk, else null. */
  cached(request: ImageRequest, format: ImageFormat): Promise<string | null>;
  /** The cache file of the variant, made if needed; null when the media store does not know the photo. */
  variant(request: ImageRequest, format: ImageFormat): Promise<string | null>;
  readonly stats: { readonly running: number; readonly queued: number; produced: number };
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}

function tmpName(file: string): string {
  return `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
}

/** Write then rename: a concurrent reader sees the whole file or none. */
async function writeAtomic(file: string, body: Buffer): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const tmp = tmpName(file);
  try {
    await fs.writeFile(tmp, body);
    await fs.rename(tmp, file);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
}

/** `file` becomes the same content as `source`: a hard link where the file system allows it. */
async function linkAtomic(source: string, file: string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const tmp = tmpName(file);
  try {
    await fs.link(source, tmp).catch(() => fs.copyFile(source, tmp));
    await fs.rename(tmp, file);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
}

function encode(pipeline: Sharp, format: ImageFormat, quality: number): Promise<Buffer> {
  const p = pipeline.timeout({ seconds: JOB_TIMEOUT_SECONDS });
  switch (format) {
    case 'avif':
      return p.avif({ quality, effort: AVIF_EFFORT }).toBuffer();
    case 'webp':
      return p.webp({ quality }).toBuffer();
    case 'jpeg':
      return p.jpeg({ quality, mozjpeg: true }).toBuffer();
  }
}

export function createImageService({
  store,
  cacheDir,
  maxConcurrent = 2,
  maxQueue = 256,
}: ImageServiceOptions): ImageService {
  const limiter = createLimiter(Math.max(1, maxConcurrent), Math.max(0, maxQueue));
  const inFlight = new Map<string, Promise<string | null>>();
  const stats = {
    get running() {
      return limiter.running;
    },
    get queued() {
      return limiter.queued;
    },
    produced: 0,
  };

  async function make(request: ImageRequest, format: ImageFormat, file: string): Promise<string | null> {
    return limiter.run(async () => {
      // Made by another process (or an earlier request) while this one waited.
      if (await exists(file)) return file;
      const original = await store.getOriginal(request.mediaPath);
      if (!original) return null;
      const sharp = await loadSharp();
      stats.produced++;
      if (request.kind === 'placeholder') {
        const pipeline = sharp(original, INPUT)
          .autoOrient()
          .resize(PLACEHOLDER.width, PLACEHOLDER.height, { fit: 'fill' })
          .blur(PLACEHOLDER.blur);
        await writeAtomic(file, await encode(pipeline, format, PLACEHOLDER.quality));
        return file;
      }
      const meta = await sharp(original, INPUT).metadata();
      const originalWidth = meta.autoOrient.width;
      if (request.width < originalWidth) {
        await writeAtomic(
          file,
          await encode(sharp(original, INPUT).autoOrient().resize({ width: request.width }), format, IMAGE_QUALITY),
        );
        return file;
      }
      // Never upscale: every width from the original's up shares one file at the original width.
      const full = variantFile(cacheDir, 'full', request.mediaPath, format);
      if (!(await exists(full)))
        await writeAtomic(full, await encode(sharp(original, INPUT).autoOrient(), format, IMAGE_QUALITY));
      await linkAtomic(full, file);
      return file;
    });
  }

  const fileOf = (request: ImageRequest, format: ImageFormat) =>
    variantFile(
      cacheDir,
      request.kind === 'placeholder' ? 'placeholder' : String(request.width),
      request.mediaPath,
      format,
    );

  return {
    stats,
    async cached(request, format) {
      const file = fileOf(request, format);
      return (await exists(file)) ? file : null;
    },
    async variant(request, format) {
      const file = fileOf(request, format);
      if (await exists(file)) return file;
      let pending = inFlight.get(file);
      if (!pending) {
        pending = make(request, format, file).finally(() => inFlight.delete(file));
        inFlight.set(file, pending);
      }
      return pending;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The Fastify plugin.

export interface ImageRoutesOptions extends ImageServiceOptions {
  /** A service made beforehand (tests, benchmarks); otherwise one is made from the other options. */
  service?: ImageService;
}

function fail(reply: FastifyReply, status: number, message: string) {
  return reply.code(status).type('text/plain; charset=utf-8').header('cache-control', 'no-store').send(message);
}

export async function imageRoutes(app: FastifyInstance, options: ImageRoutesOptions): Promise<void> {
  // libvips threads per job: the CPUs shared between the jobs that may run at once. Its
  // operation cache helps only when the same input is processed again, which the disk cache
  // already prevents, so it is off (less memory).
  const maxConcurrent = Math.max(1, options.maxConcurrent ?? 2);
  setSharpSettings({ concurrency: Math.max(1, Math.floor(os.availableParallelism() / maxConcurrent)), cache: false });
  const service = options.service ?? createImageService({ ...options, maxConcurrent });

  app.get('/img/*', async (req, reply) => {
    const parsed = parseImageRequest((req.params as { '*': string })['*']);
    if (!parsed.ok) return fail(reply, parsed.status, parsed.message);
    const { request } = parsed;
    const format = negotiateImageFormat(
      req.headers.accept,
      request.kind === 'placeholder' ? ['webp', 'jpeg'] : ['webp', 'avif', 'jpeg'],
    );
    let cache: 'hit' | 'miss' = 'hit';
    let body: Buffer | null = null;
    try {
      // Twice at most: a cache file removed between check and read (a cleaner) is made again.
      for (let attempt = 0; attempt < 2 && !body; attempt++) {
        let file = await service.cached(request, format);
        if (!file) {
          cache = 'miss';
          file = await service.variant(request, format);
          if (!file) return fail(reply, 404, 'Not found');
        }
        body = await fs.readFile(file).catch((err: NodeJS.ErrnoException) => {
          if (err.code === 'ENOENT' && attempt === 0) return null;
          throw err;
        });
      }
      if (!body) throw new Error('image cache file vanished twice');
    } catch (err) {
      if (err instanceof QueueFullError) return fail(reply.header('retry-after', '1'), 503, 'Busy, try again');
      req.log.error({ err, mediaPath: request.mediaPath }, 'image variant failed');
      return fail(reply, 500, 'Image failed');
    }
    return (
      reply
        .type(IMAGE_CONTENT_TYPES[format])
        .header('vary', 'Accept')
        // Whether the variant was on disk already: for operators and tests, not for caches.
        .header('x-image-cache', cache)
        // A media path never changes content (a new photo gets a new path).
        .header('cache-control', IMMUTABLE)
        .send(body)
    );
  });
}
