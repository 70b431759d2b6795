import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createImageService,
  createLimiter,
  imageRoutes,
  negotiateImageFormat,
  parseImageRequest,
  QueueFullError,
  variantFile,
} from './images.server';
import type { MediaStore } from './media.server';

describe('negotiateImageFormat', () => {
  it('prefers WebP, then AVIF, then JPEG when the browser ranks them alike', () => {
    // Chrome's and Firefox's image Accept headers.
    expect(negotiateImageFormat('image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8')).toBe('webp');
    expect(negotiateImageFormat('image/webp,*/*')).toBe('webp');
    expect(negotiateImageFormat('image/avif,image/png,*/*;q=0.8')).toBe('avif');
    expect(negotiateImageFormat('image/jpeg')).toBe('jpeg');
  });
  it('follows the q values the browser gives', () => {
    expect(negotiateImageFormat('image/avif,image/webp;q=0.9')).toBe('avif');
    expect(negotiateImageFormat('image/avif;q=0.5,image/webp;q=0.4,image/jpeg;q=0.6')).toBe('jpeg');
    expect(negotiateImageFormat('image/avif;q=0.5,image/webp;q=0.4,image/jpeg;q=0.3')).toBe('avif');
    expect(negotiateImageFormat('image/webp;q=0.3,image/avif;q=0.3')).toBe('webp');
    expect(negotiateImageFormat('image/avif;q=2,image/webp;q=0.1')).toBe('webp');
  });
  it('falls back to JPEG with no header or only wildcards', () => {
    expect(negotiateImageFormat(undefined)).toBe('jpeg');
    expect(negotiateImageFormat('')).toBe('jpeg');
    expect(negotiateImageFormat('*/*')).toBe('jpeg');
    expect(negotiateImageFormat('image/png,image/svg+xml,image/*;q=0.8,video/*;q=0.8,*/*;q=0.5')).toBe('jpeg');
  });
  it('honours q=0 and ignores case and spaces', () => {
    expect(negotiateImageFormat('image/webp;q=0, image/avif')).toBe('avif');
    expect(negotiateImageFormat('image/avif;q=0, image/webp')).toBe('webp');
    expect(negotiateImageFormat('image/avif; q=0.0, image/webp;q=0')).toBe('jpeg');
    expect(negotiateImageFormat('IMAGE/AVIF ; q=0.5')).toBe('avif');
    expect(negotiateImageFormat('image/avif;q=junk')).toBe('jpeg');
  });
  it('chooses among the formats offered (placeholders: WebP or JPEG)', () => {
    expect(negotiateImageFormat('image/avif,image/webp', ['webp', 'jpeg'])).toBe('webp');
    expect(negotiateImageFormat('image/avif', ['webp', 'jpeg'])).toBe('jpeg');
  });
  it('survives a huge header', () => {
    expect(negotiateImageFormat(`${'x/y,'.repeat(50_000)}image/avif`)).toBe('jpeg');
  });
});

describe('parseImageRequest', () => {
  it('reads a width and a media path', () => {
    expect(parseImageRequest('640/products/palto-x/1.jpg')).toEqual({
      ok: true,
      request: { kind: 'resize', width: 640, mediaPath: 'products/palto-x/1.jpg' },
    });
    expect(parseImageRequest('3072/products/a/2.jpg')).toMatchObject({ ok: true, request: { width: 3072 } });
  });
  it('reads a placeholder', () => {
    expect(parseImageRequest('placeholder/products/a/1.jpg')).toEqual({
      ok: true,
      request: { kind: 'placeholder', mediaPath: 'products/a/1.jpg' },
    });
  });
  it('refuses widths the server does not make', () => {
    for (const w of [
      '0',
      '1',
      '100',
      '641',
      '1200',
      '4096',
      '0640',
      '640.0',
      '6.4e2',
      '+640',
      '-640',
      'abc',
      '99999999999999999999',
      '',
    ])
      expect(parseImageRequest(`${w}/products/a/1.jpg`), w).toEqual({
        ok: false,
        status: 400,
        message: 'Unknown width',
      });
  });
  it('refuses traversal and junk paths', () => {
    for (const rest of [
      '640',
      '640/',
      '640/../../etc/passwd',
      '640/products/../../../etc/passwd.jpg',
      '640/products/a/..%2f..%2f1.jpg',
      '640/products\\a\\1.jpg',
      '640//etc/passwd.jpg',
      '640/products/a/1.jpg\u0000.png',
      '640/Products/A/1.JPG',
      '640/products/a/1.svg',
      '640/products/a/.hidden.jpg',
      `640/${'a/'.repeat(200)}1.jpg`,
      'placeholder/../x.jpg',
    ]) {
      const parsed = parseImageRequest(rest);
      expect(parsed.ok, rest).toBe(false);
    }
  });
});

describe('variantFile', () => {
  it('stays inside the cache', () => {
    expect(variantFile('/c', '640', 'products/a/1.jpg', 'webp')).toBe(path.resolve('/c/640/products/a/1.jpg.webp'));
    expect(() => variantFile('/c', '640', '../../etc/passwd', 'webp')).toThrow();
  });
});

describe('createLimiter', () => {
  it('runs at most `max` jobs at once, the others in order, and refuses past the queue', async () => {
    const limiter = createLimiter(2, 3);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    const releases: Array<() => void> = [];
    const job = (n: number) =>
      limiter.run(async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise<void>((resolve) => releases.push(resolve));
        order.push(n);
        running--;
        return n;
      });
    const jobs = [1, 2, 3, 4, 5].map(job);
    await expect(job(6)).rejects.toBeInstanceOf(QueueFullError);
    expect(limiter.running).toBe(2);
    expect(limiter.queued).toBe(3);
    while (order.length < 5) {
      await new Promise((r) => setImmediate(r));
      releases.shift()?.();
    }
    expect(await Promise.all(jobs)).toEqual([1, 2, 3, 4, 5]);
    expect(order).toEqual([1, 2, 3, 4, 5]);
    expect(peak).toBe(2);
    expect(limiter.running).toBe(0);
  });
  it('frees the slot when a job fails', async () => {
    const limiter = createLimiter(1, 1);
    await expect(limiter.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await limiter.run(async () => 'next')).toBe('next');
    expect(limiter.running).toBe(0);
  });
});

describe('createImageService', () => {
  let dir: string;
  let original: string;
  let originalsRead = 0;
  const store: MediaStore = {
    async getOriginal(mediaPath) {
      originalsRead++;
      return mediaPath === 'products/a/1.jpg' ? original : null;
    },
  };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-images-unit-'));
    original = path.join(dir, 'original.jpg');
    await sharp({ create: { width: 600, height: 800, channels: 3, background: '#7a5a3a' } })
      .jpeg()
      .toFile(original);
  });
  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('makes a variant once, even for concurrent requests, and reuses it', async () => {
    const service = createImageService({ store, cacheDir: path.join(dir, 'cache'), maxConcurrent: 1 });
    const files = await Promise.all(
      Array.from({ length: 5 }, () =>
        service.variant({ kind: 'resize', width: 320, mediaPath: 'products/a/1.jpg' }, 'webp'),
      ),
    );
    expect(new Set(files).size).toBe(1);
    expect(service.stats.produced).toBe(1);
    const meta = await sharp(files[0] ?? '').metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 320, height: 427 });
    await service.variant({ kind: 'resize', width: 320, mediaPath: 'products/a/1.jpg' }, 'webp');
    expect(service.stats.produced).toBe(1);
  });

  it('never upscales, and makes the original width once for every larger width', async () => {
    const service = createImageService({ store, cacheDir: path.join(dir, 'cache2') });
    const a = await service.variant({ kind: 'resize', width: 640, mediaPath: 'products/a/1.jpg' }, 'jpeg');
    const b = await service.variant({ kind: 'resize', width: 3072, mediaPath: 'products/a/1.jpg' }, 'jpeg');
    expect((await sharp(a ?? '').metadata()).width).toBe(600);
    expect((await sharp(b ?? '').metadata()).width).toBe(600);
    expect(service.stats.produced).toBe(2); // the second one only links the first
    expect(fs.readFileSync(a ?? '').equals(fs.readFileSync(b ?? ''))).toBe(true);
  });

  it('answers null for an unknown photo and leaves no file behind', async () => {
    const cacheDir = path.join(dir, 'cache3');
    const service = createImageService({ store, cacheDir });
    const before = originalsRead;
    expect(await service.variant({ kind: 'resize', width: 640, mediaPath: 'products/none/1.jpg' }, 'webp')).toBeNull();
    expect(originalsRead).toBe(before + 1);
    expect(fs.existsSync(path.join(cacheDir, '640', 'products', 'none'))).toBe(false);
  });

  it('makes a 10×10 placeholder', async () => {
    const service = createImageService({ store, cacheDir: path.join(dir, 'cache4') });
    const file = await service.variant({ kind: 'placeholder', mediaPath: 'products/a/1.jpg' }, 'webp');
    expect(await sharp(file ?? '').metadata()).toMatchObject({ format: 'webp', width: 10, height: 10 });
    expect(fs.statSync(file ?? '').size).toBeLessThan(1024);
  });
});

describe('imageRoutes on its own (no security filter in front)', () => {
  let dir: string;
  let original: string;
  let release: () => void = () => {};
  let gate: Promise<void> = Promise.resolve();
  const store: MediaStore = {
    async getOriginal(mediaPath) {
      await gate;
      return mediaPath === 'products/a/1.jpg' ? original : null;
    },
  };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-images-routes-'));
    original = path.join(dir, 'original.jpg');
    await sharp({ create: { width: 400, height: 600, channels: 3, background: '#151515' } })
      .jpeg()
      .toFile(original);
  });
  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function app(options: { maxConcurrent?: number; maxQueue?: number } = {}) {
    const app = Fastify();
    await app.register(imageRoutes, {
      store,
      cacheDir: path.join(dir, `cache-${Math.random().toString(36).slice(2)}`),
      ...options,
    });
    return app;
  }

  it('answers 400 to traversal and junk, 404 to unknown photos, and never reads outside the cache', async () => {
    const a = await app();
    for (const url of [
      '/img/640/../../etc/passwd',
      '/img/640/..%2f..%2fetc%2fpasswd',
      '/img/640/%2e%2e%2f%2e%2e%2fetc%2fpasswd.jpg',
      '/img/640/products%5c..%5c1.jpg',
      '/img/640/%00.jpg',
      '/img/641/products/a/1.jpg',
      '/img/placeholder',
    ]) {
      const res = await a.inject(url);
      expect([400, 404], `${url} → ${res.statusCode}`).toContain(res.statusCode);
    }
    expect((await a.inject('/img/640/products/b/1.jpg')).statusCode).toBe(404);
    const ok = await a.inject({ url: '/img/640/products/a/1.jpg', headers: { accept: 'image/webp' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toBe('image/webp');
    expect((await sharp(ok.rawPayload).metadata()).width).toBe(400); // never upscaled
    await a.close();
  });

  it('answers 503 with Retry-After when the queue is full, and recovers', async () => {
    const service = createImageService({ store, cacheDir: path.join(dir, 'cache-503'), maxConcurrent: 1, maxQueue: 1 });
    const a = Fastify();
    await a.register(imageRoutes, { store, cacheDir: '', service });
    await a.ready();
    gate = new Promise<void>((resolve) => (release = resolve));
    const first = a.inject('/img/320/products/a/1.jpg');
    const second = a.inject('/img/640/products/a/1.jpg');
    while (service.stats.running < 1 || service.stats.queued < 1) await new Promise((r) => setImmediate(r));
    const third = await a.inject('/img/768/products/a/1.jpg');
    expect(third.statusCode).toBe(503);
    expect(third.headers['retry-after']).toBe('1');
    expect(third.headers['cache-control']).toBe('no-store');
    release();
    expect((await first).statusCode).toBe(200);
    expect((await second).statusCode).toBe(200);
    expect((await a.inject('/img/768/products/a/1.jpg')).statusCode).toBe(200);
    await a.close();
  });
});
