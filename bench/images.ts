// The image server's cost (SPEC §9): a 640-px WebP and AVIF (JPEG beside them) of a product
// photo, sequentially, from nothing on disk (the demo original is drawn first), from an
// original on disk, and from the disk cache; then a catalogue page's worth of cold AVIFs at
// once. Over HTTP against a seeded shop without the storefront (no build needed):
//
//     node --import tsx bench/images.ts
//
// Prints a table; asserts nothing. BENCH_SAMPLES sets the photos per figure (default 12).
import os from 'node:os';
import sharp from 'sharp';
import { startTestShop, type TestShop } from '~/tests/support/server';
import type { CatalogSectionResponse } from '~/shared/contract';

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 12);
const PAGE = 24;
const ACCEPT = { avif: 'image/avif,image/webp,*/*', webp: 'image/webp,*/*', jpeg: '*/*' } as const;
type Format = keyof typeof ACCEPT;

async function timed(
  shop: TestShop,
  path: string,
  accept?: string,
): Promise<{ ms: number; bytes: number; cache: string | null }> {
  const started = performance.now();
  const res = await fetch(`${shop.baseUrl}${path}`, { headers: accept ? { accept } : {} });
  const body = await res.arrayBuffer();
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
  return { ms, bytes: body.byteLength, cache: res.headers.get('x-image-cache') };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

function p90(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.9) - 1)] ?? 0;
}

const ms = (x: number) => `${x.toFixed(x < 10 ? 1 : 0)} ms`;

async function main() {
  const shop = await startTestShop({ products: 200 });
  try {
    const photos: string[] = [];
    for (let page = 1; photos.length < SAMPLES * 9 + PAGE; page++) {
      const list = (await (
        await fetch(`${shop.baseUrl}/backend/catalog/all/?PAGEN_1=${page}`)
      ).json()) as CatalogSectionResponse;
      if (list.ITEMS.length === 0) break;
      for (const item of list.ITEMS)
        for (const src of [item.PREVIEW_PICTURE, item.SECOND_PICTURE])
          if (src?.startsWith('/media/')) photos.push(src.slice('/media/'.length));
    }
    const take = (n: number) => {
      if (photos.length < n) throw new Error('not enough seeded photos');
      return photos.splice(0, n);
    };

    const rows: Array<[string, string]> = [];
    const originalBytes = (await timed(shop, `/media/${photos[0]}`)).bytes;
    rows.push(['original (1200×1600 JPEG)', `${(originalBytes / 1024).toFixed(1)} KB`]);

    for (const format of ['webp', 'avif', 'jpeg'] as const satisfies readonly Format[]) {
      // 1. Nothing on disk: the demo original is drawn, then resized and encoded.
      const cold = [];
      const coldPhotos = take(SAMPLES);
      for (const p of coldPhotos) cold.push(await timed(shop, `/img/640/${p}`, ACCEPT[format]));
      // 2. Original on disk, variant not yet made: resize and encode only.
      const warm = [];
      for (const p of take(SAMPLES)) {
        await timed(shop, `/media/${p}`);
        warm.push(await timed(shop, `/img/640/${p}`, ACCEPT[format]));
      }
      // 3. From the disk cache.
      const cached = [];
      for (const p of coldPhotos) cached.push(await timed(shop, `/img/640/${p}`, ACCEPT[format]));
      if (cached.some((c) => c.cache !== 'hit')) throw new Error('expected cache hits');

      const bytes = median(cold.map((c) => c.bytes));
      rows.push([
        `640 ${format}: nothing on disk (draw + resize)`,
        `median ${ms(median(cold.map((c) => c.ms)))}, p90 ${ms(p90(cold.map((c) => c.ms)))}`,
      ]);
      rows.push([
        `640 ${format}: original on disk (resize)`,
        `median ${ms(median(warm.map((c) => c.ms)))}, p90 ${ms(p90(warm.map((c) => c.ms)))}`,
      ]);
      rows.push([
        `640 ${format}: from the disk cache`,
        `median ${ms(median(cached.map((c) => c.ms)))}, p90 ${ms(p90(cached.map((c) => c.ms)))}`,
      ]);
      rows.push([`640 ${format}: size`, `median ${(bytes / 1024).toFixed(1)} KB`]);
    }

    const placeholder = await timed(shop, `/img/placeholder/${photos[0]}`, ACCEPT.webp);
    rows.push(['placeholder 10×10 webp: size', `${placeholder.bytes} bytes`]);

    // A catalogue page's first views at once: 24 different cold AVIFs, 2 sharp jobs at a time.
    const page = take(PAGE);
    const started = performance.now();
    await Promise.all(page.map((p) => timed(shop, `/img/640/${p}`, ACCEPT.avif)));
    rows.push([
      `${PAGE} cold 640 avif at once (a catalogue page)`,
      `${ms(performance.now() - started)} until the last`,
    ]);

    console.log(
      `\nVitrina image bench (${os.cpus().length} cores, sharp ${sharp.versions.sharp}, libvips ${sharp.versions.vips}, ${SAMPLES} photos per figure)`,
    );
    for (const [k, v] of rows) console.log(`  ${k.padEnd(48)} ${v}`);
  } finally {
    await shop.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
