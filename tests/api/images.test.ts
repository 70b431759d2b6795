import http from 'node:http';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { setUpTestShop } from '~/tests/support/server';
import { getJson } from '~/tests/support/api';
import { CatalogSectionResponse } from '~/shared/contract';

// The image server over HTTP (SPEC §4 Image, §9): /img/{width}/{mediaPath} and
// /img/placeholder/{mediaPath} against a whole seeded shop.

const CHROME_ACCEPT = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8';
const OLD_SAFARI_ACCEPT = 'image/png,image/svg+xml,image/*;q=0.8,video/*;q=0.8,*/*;q=0.5';

const shop = setUpTestShop();
/** Media paths of seeded photos ('products/{slug}/1.jpg'), each test taking its own so caches start cold. */
let photos: string[] = [];
const take = () => {
  const p = photos.shift();
  if (!p) throw new Error('out of seeded photos');
  return p;
};

async function get(path: string, accept?: string) {
  const res = await fetch(`${shop.baseUrl}${path}`, { headers: accept ? { accept } : {} });
  const body = Buffer.from(await res.arrayBuffer());
  return { res, body };
}

/** A request whose path is sent exactly as written (fetch would resolve `..` and re-encode). */
function rawGet(path: string): Promise<number> {
  const { hostname, port } = new URL(shop.baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname, port, path, method: 'GET' }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

function magic(body: Buffer): 'avif' | 'webp' | 'jpeg' | 'unknown' {
  if (body.subarray(4, 12).toString('latin1') === 'ftypavif') return 'avif';
  if (body.subarray(0, 4).toString('latin1') === 'RIFF' && body.subarray(8, 12).toString('latin1') === 'WEBP')
    return 'webp';
  if (body[0] === 0xff && body[1] === 0xd8 && body[2] === 0xff) return 'jpeg';
  return 'unknown';
}

beforeAll(async () => {
  const pages: CatalogSectionResponse[] = [];
  for (let page = 1; page <= 3; page++)
    pages.push(await getJson(shop.baseUrl, `/backend/catalog/all/?PAGEN_1=${page}`, CatalogSectionResponse));
  photos = [...new Set(pages.flatMap((p) => p.ITEMS.flatMap((i) => [i.PREVIEW_PICTURE, i.SECOND_PICTURE])))]
    .filter((src): src is string => typeof src === 'string' && src.startsWith('/media/'))
    .map((src) => src.slice('/media/'.length));
  expect(photos.length).toBeGreaterThanOrEqual(40);
});

describe('format by Accept', () => {
  it.each([
    ['webp', CHROME_ACCEPT],
    ['avif', 'image/avif,image/png,*/*;q=0.8'],
    ['webp', 'image/webp,*/*'],
    ['jpeg', OLD_SAFARI_ACCEPT],
    ['jpeg', undefined],
  ] as const)('answers %s to Accept %s', async (format, accept) => {
    const { res, body } = await get(`/img/640/${take()}`, accept);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(`image/${format}`);
    expect(magic(body)).toBe(format);
    expect(res.headers.get('vary')?.toLowerCase()).toContain('accept');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(Number(res.headers.get('content-length'))).toBe(body.length);
    const meta = await sharp(body).metadata();
    expect(meta.format).toBe(format === 'avif' ? 'heif' : format);
    expect(meta.width).toBe(640);
    expect(meta.height).toBe(853); // 1200×1600 keeps its proportions
  });

  it('does not take q=0 as accepted', async () => {
    const { res } = await get(`/img/320/${take()}`, 'image/webp;q=0,image/avif');
    expect(res.headers.get('content-type')).toBe('image/avif');
  });
});

describe('widths', () => {
  it('honours every SPEC §9 width below the original', async () => {
    const photo = take();
    for (const width of [320, 640, 768, 1024]) {
      const { res, body } = await get(`/img/${width}/${photo}`, 'image/webp');
      expect(res.status).toBe(200);
      expect((await sharp(body).metadata()).width).toBe(width);
    }
  });

  it('never upscales: wider than the 1200-px original gives the original width', async () => {
    const photo = take();
    for (const width of [1280, 1536, 2048, 3072]) {
      const { res, body } = await get(`/img/${width}/${photo}`, 'image/webp');
      expect(res.status).toBe(200);
      const meta = await sharp(body).metadata();
      expect(meta).toMatchObject({ width: 1200, height: 1600 });
    }
  });

  it('is much smaller than the original', async () => {
    const photo = take();
    const original = await get(`/media/${photo}`);
    const small = await get(`/img/320/${photo}`, CHROME_ACCEPT);
    expect(small.body.length).toBeLessThan(original.body.length / 2);
  });
});

describe('placeholder', () => {
  it('is a tiny 10-px blurred WebP, or JPEG without WebP', async () => {
    const photo = take();
    for (const [accept, format] of [
      [CHROME_ACCEPT, 'webp'],
      [undefined, 'jpeg'],
    ] as const) {
      const { res, body } = await get(`/img/placeholder/${photo}`, accept);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(`image/${format}`);
      expect(magic(body)).toBe(format);
      expect(body.length).toBeLessThan(1024);
      expect(await sharp(body).metadata()).toMatchObject({ width: 10, height: 10 });
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
  });
});

describe('disk cache', () => {
  it('serves the second request of a variant from disk, the same bytes', async () => {
    const path = `/img/768/${take()}`;
    const first = await get(path, CHROME_ACCEPT);
    const second = await get(path, CHROME_ACCEPT);
    expect(first.res.headers.get('x-image-cache')).toBe('miss');
    expect(second.res.headers.get('x-image-cache')).toBe('hit');
    expect(second.body.equals(first.body)).toBe(true);
    // Another format of the same width is a variant of its own.
    const jpeg = await get(path);
    expect(jpeg.res.headers.get('x-image-cache')).toBe('miss');
    expect(magic(jpeg.body)).toBe('jpeg');
  });

  it('gives concurrent identical requests the same result', async () => {
    const path = `/img/1024/${take()}`;
    const all = await Promise.all(Array.from({ length: 8 }, () => get(path, CHROME_ACCEPT)));
    for (const { res, body } of all) {
      expect(res.status).toBe(200);
      expect(body.equals(all[0]?.body ?? Buffer.alloc(0))).toBe(true);
    }
  });
});

describe('load', () => {
  it('answers a burst of 20 different requests, all of them', async () => {
    const widths = [320, 640, 768, 1024];
    const accepts = [CHROME_ACCEPT, 'image/webp', undefined];
    const requests = Array.from({ length: 20 }, (_, i) => ({
      path: `/img/${widths[i % widths.length]}/${take()}`,
      accept: accepts[i % accepts.length],
    }));
    const results = await Promise.all(requests.map((r) => get(r.path, r.accept)));
    for (const { res, body } of results) {
      expect(res.status).toBe(200);
      expect(magic(body)).not.toBe('unknown');
    }
  });
});

describe('bad requests never give 500 and never resize', () => {
  it('answers 400 for widths the server does not make', async () => {
    const photo = photos[0] ?? '';
    for (const w of ['0', '1', '100', '641', '1200', '4096', '99999', '640.5', 'abc', '-640', '1e3']) {
      const { res } = await get(`/img/${w}/${photo}`);
      expect(res.status, w).toBe(400);
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('answers 404 for a photo nobody has', async () => {
    for (const path of [
      '/img/640/products/no-such-product/1.jpg',
      '/img/placeholder/products/no-such-product/1.jpg',
      '/img/640/nothing.jpg',
    ]) {
      const { res } = await get(path, CHROME_ACCEPT);
      expect(res.status, path).toBe(404);
    }
  });

  it('answers 400, 403 or 404 to traversal and junk', async () => {
    const junk = [
      '/img/640/../../etc/passwd',
      '/img/640/..%2f..%2fetc%2fpasswd',
      '/img/640/%2e%2e/%2e%2e/etc/passwd',
      '/img/640/products/..%5c..%5cserver%5capp.server.ts',
      '/img/640/products/a/1.jpg%00.png',
      '/img/640/%00',
      '/img/640/Products/A/1.JPG',
      '/img/640/products/a/1.svg',
      '/img/640//etc/passwd.jpg',
      '/img/640/products//a/1.jpg',
      '/img/640/',
      '/img/640',
      '/img/',
      '/img/placeholder/',
      '/img/placeholder',
      `/img/640/${'a/'.repeat(300)}1.jpg`,
      '/img/640/products/a/1.jpg/',
      '/img/640/%ff%fe.jpg',
      '/img/640/%',
      '/img/640/products/a/%E2%80%AE1.jpg',
    ];
    for (const path of junk) {
      const status = await rawGet(path);
      expect([400, 403, 404], `${path} → ${status}`).toContain(status);
    }
  });

  it('still answers normally afterwards', async () => {
    const { res } = await get(`/img/320/${take()}`, CHROME_ACCEPT);
    expect(res.status).toBe(200);
  });
});

describe('HEAD', () => {
  it('answers with the headers of GET', async () => {
    const res = await fetch(`${shop.baseUrl}/img/320/${take()}`, {
      method: 'HEAD',
      headers: { accept: CHROME_ACCEPT },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(res.headers.get('vary')?.toLowerCase()).toContain('accept');
  });
});
