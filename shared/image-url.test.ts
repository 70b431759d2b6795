import { describe, expect, it } from 'vitest';
import {
  buildDensitySrcSet,
  buildSrcSet,
  fitImageWidth,
  IMAGE_DENSITIES,
  IMAGE_QUALITY,
  IMAGE_WIDTHS,
  imageUrl,
  isImageWidth,
  mediaPathOf,
  PLACEHOLDER,
  placeholderUrl,
  SCREEN_WIDTHS,
} from './image-url';

describe('SPEC §9 constants', () => {
  it('has the screen widths, densities, quality and placeholder of SPEC §9', () => {
    expect(SCREEN_WIDTHS).toEqual([320, 640, 768, 1024, 1280, 1536]);
    expect(IMAGE_DENSITIES).toEqual([1, 2]);
    expect(IMAGE_QUALITY).toBe(80);
    expect(PLACEHOLDER).toEqual({ width: 10, height: 10, quality: 50, blur: 3 });
  });
  it('produces each screen width at each density, once, in order', () => {
    expect(IMAGE_WIDTHS).toEqual([320, 640, 768, 1024, 1280, 1536, 2048, 2560, 3072]);
  });
  it('accepts only those widths', () => {
    for (const w of IMAGE_WIDTHS) expect(isImageWidth(w)).toBe(true);
    for (const w of [0, -640, 1, 100, 639, 641, 1200, 4096, 640.5, NaN, Infinity]) expect(isImageWidth(w)).toBe(false);
  });
});

describe('fitImageWidth', () => {
  it('rounds up to a produced width and stops at the largest', () => {
    expect(fitImageWidth(1)).toBe(320);
    expect(fitImageWidth(320)).toBe(320);
    expect(fitImageWidth(600)).toBe(640);
    expect(fitImageWidth(1200)).toBe(1280);
    expect(fitImageWidth(5000)).toBe(3072);
  });
});

describe('mediaPathOf', () => {
  it('takes the path of a /media photo', () => {
    expect(mediaPathOf('/media/products/palto-x/1.jpg')).toBe('products/palto-x/1.jpg');
    expect(mediaPathOf('/media/art/warm-coat/7a5a3a/0.jpg')).toBe('art/warm-coat/7a5a3a/0.jpg');
  });
  it('refuses everything else', () => {
    for (const src of [
      'https://cdn.example.com/media/products/a/1.jpg',
      '//cdn.example.com/a.jpg',
      '/img/640/products/a/1.jpg',
      '/media/',
      '/media/products/a/1.jpg?v=2',
      '/media/products/a/1.jpg#x',
      '/media/../etc/passwd.jpg',
      '/media/products/../a/1.jpg',
      '/media/Products/A/1.JPG',
      '/media/products/a/1.gif',
      '/media/products//a/1.jpg',
      `/media/${'a/'.repeat(200)}1.jpg`,
      'data:image/png;base64,AAAA',
    ]) {
      expect(mediaPathOf(src), src).toBeNull();
    }
  });
});

describe('imageUrl', () => {
  it('turns a /media photo into its resized address', () => {
    expect(imageUrl('/media/products/a/1.jpg', 640)).toBe('/img/640/products/a/1.jpg');
    expect(imageUrl('/media/products/a/1.jpg', 3072)).toBe('/img/3072/products/a/1.jpg');
  });
  it('rounds a width the server does not make up to one it does', () => {
    expect(imageUrl('/media/products/a/1.jpg', 600)).toBe('/img/640/products/a/1.jpg');
    expect(imageUrl('/media/products/a/1.jpg', 9999)).toBe('/img/3072/products/a/1.jpg');
  });
  it('passes external and non-/media addresses through unchanged', () => {
    for (const src of [
      'https://cdn.example.com/a.jpg',
      '/favicon.svg',
      '/assets/logo-abc123.png',
      'data:image/gif;base64,R0lGOD',
    ]) {
      expect(imageUrl(src, 640)).toBe(src);
    }
  });
});

describe('placeholderUrl', () => {
  it('is the placeholder address of a /media photo, null otherwise', () => {
    expect(placeholderUrl('/media/products/a/1.jpg')).toBe('/img/placeholder/products/a/1.jpg');
    expect(placeholderUrl('https://cdn.example.com/a.jpg')).toBeNull();
  });
});

describe('buildSrcSet', () => {
  it('lists every produced width with a width descriptor by default', () => {
    const srcset = buildSrcSet('/media/products/a/1.jpg');
    expect(srcset?.split(', ')).toEqual(IMAGE_WIDTHS.map((w) => `/img/${w}/products/a/1.jpg ${w}w`));
  });
  it('keeps the given widths that the server makes, sorted and once', () => {
    expect(buildSrcSet('/media/products/a/1.jpg', [768, 320, 999, 320])).toBe(
      '/img/320/products/a/1.jpg 320w, /img/768/products/a/1.jpg 768w',
    );
  });
  it('is undefined for external photos and for no usable width', () => {
    expect(buildSrcSet('https://cdn.example.com/a.jpg')).toBeUndefined();
    expect(buildSrcSet('/media/products/a/1.jpg', [100, 200])).toBeUndefined();
  });
});

describe('buildDensitySrcSet', () => {
  it('gives 1x and 2x of the displayed width', () => {
    expect(buildDensitySrcSet('/media/products/a/1.jpg', 300)).toBe(
      '/img/320/products/a/1.jpg 1x, /img/640/products/a/1.jpg 2x',
    );
    expect(buildDensitySrcSet('/media/products/a/1.jpg', 1536)).toBe(
      '/img/1536/products/a/1.jpg 1x, /img/3072/products/a/1.jpg 2x',
    );
  });
  it('is undefined for external photos', () => {
    expect(buildDensitySrcSet('https://cdn.example.com/a.jpg', 300)).toBeUndefined();
  });
});
