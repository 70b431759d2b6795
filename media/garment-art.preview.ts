/**
 * Contact sheets of the generated product photos, for eyeballing the art.
 *
 *   npx tsx media/garment-art.preview.ts /tmp/art [--kinds coat,jeans] [--colors '#141414,#f7f6f2'] [--size 300]
 *
 * Writes kinds-<colour>.png (every kind, front view — or --view N — one sheet per colour),
 * views.png (all five views of a few kinds), seeds.png (seed variations) and
 * full-<kind>-<view>.jpg samples at full size; prints the average render time.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { ART_HEIGHT, ART_WIDTH, GARMENT_KINDS, garmentSvg, renderGarmentJpeg } from './garment-art';
import type { GarmentArt, GarmentKind } from './garment-art';

const COLORS: Record<string, string> = {
  black: '#141414',
  white: '#f7f6f2',
  camel: '#b8874e',
  navy: '#1e2a44',
  burgundy: '#6b1f2c',
  grey: '#8e8e8c',
  powder: '#e3c5bd',
  olive: '#6a6b3b',
  blue: '#2e4c8c',
};

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

async function tile(art: GarmentArt, w: number): Promise<Buffer> {
  const h = Math.round((w * ART_HEIGHT) / ART_WIDTH);
  return sharp(Buffer.from(garmentSvg(art)), { density: (72 * w) / ART_WIDTH })
    .resize(w, h, { fit: 'fill' })
    .png()
    .toBuffer();
}

async function sheet(file: string, arts: GarmentArt[], cols: number, w: number): Promise<void> {
  const h = Math.round((w * ART_HEIGHT) / ART_WIDTH);
  const rows = Math.ceil(arts.length / cols);
  const tiles = await Promise.all(arts.map((a) => tile(a, w)));
  await sharp({
    create: { width: cols * w + (cols + 1) * 4, height: rows * h + (rows + 1) * 4, channels: 3, background: '#ffffff' },
  })
    .composite(
      tiles.map((input, i) => ({ input, left: 4 + (i % cols) * (w + 4), top: 4 + Math.floor(i / cols) * (h + 4) })),
    )
    .png()
    .toFile(file);
  console.log('wrote', file);
}

async function main(): Promise<void> {
  const out = process.argv[2] && !process.argv[2].startsWith('--') ? process.argv[2] : '/tmp/art';
  await fs.mkdir(out, { recursive: true });
  const size = Number(arg('size') ?? 300);
  const kinds = (arg('kinds')?.split(',') ?? [...GARMENT_KINDS]) as GarmentKind[];
  const colorArg = arg('colors');
  const colors: [string, string][] = colorArg
    ? colorArg.split(',').map((c) => [c.replace('#', ''), c])
    : Object.entries(COLORS).slice(0, 4);
  const only = arg('only');
  const kindView = Number(arg('view') ?? 0);

  if (!only || only === 'kinds') {
    for (const [name, color] of colors) {
      const file = kindView ? `kinds-${name}-view${kindView}.png` : `kinds-${name}.png`;
      await sheet(
        path.join(out, file),
        kinds.map((kind, i) => ({ kind, color, view: kindView, seed: i })),
        Math.min(7, kinds.length),
        size,
      );
    }
  }
  if (!only || only === 'views') {
    const viewKinds = (arg('view-kinds')?.split(',') ?? [
      'coat',
      'jeans',
      'sweater',
      'dress',
      'bag',
      'gift-card',
    ]) as GarmentKind[];
    const palette = Object.values(COLORS);
    const arts: GarmentArt[] = [];
    viewKinds.forEach((kind, k) => {
      for (let view = 0; view < 5; view++)
        arts.push({
          kind,
          color: colors[k % colors.length]?.[1] ?? palette[k % palette.length] ?? '#8e8e8c',
          view,
          seed: k * 7 + view + 1,
        });
    });
    await sheet(path.join(out, 'views.png'), arts, 5, size);
  }
  if (!only || only === 'seeds') {
    const kind = kinds[0] ?? 'coat';
    await sheet(
      path.join(out, 'seeds.png'),
      [1, 2, 3, 4, 5, 6].map((seed) => ({ kind, color: '#b8874e', view: 0, seed })),
      6,
      240,
    );
  }
  if (!only || only === 'time') {
    // timing: full-size JPEGs, every kind and view
    const arts: GarmentArt[] = [];
    for (const kind of GARMENT_KINDS)
      for (let view = 0; view < 5; view++)
        arts.push({ kind, color: Object.values(COLORS)[(arts.length * 7) % 9] ?? '#141414', view, seed: arts.length });
    await renderGarmentJpeg(arts[0] as GarmentArt);
    const times: number[] = [];
    const cpuTimes: number[] = [];
    let worst = { ms: 0, art: arts[0] };
    for (const art of arts) {
      const t = performance.now();
      const c = process.cpuUsage();
      const jpg = await renderGarmentJpeg(art);
      const ms = performance.now() - t;
      const cpu = process.cpuUsage(c);
      cpuTimes.push((cpu.user + cpu.system) / 1000);
      times.push(ms);
      if (ms > worst.ms) worst = { ms, art };
      if (art.seed % 9 === 0) await fs.writeFile(path.join(out, `full-${art.kind}-${art.view}.jpg`), jpg);
    }
    const avg = times.reduce((a, b) => a + b, 0) / times.length;
    const sorted = [...times].sort((a, b) => a - b);
    const cpuAvg = cpuTimes.reduce((a, b) => a + b, 0) / cpuTimes.length;
    console.log(
      `render: ${arts.length} photos, wall avg ${avg.toFixed(1)} ms, p90 ${sorted[Math.floor(sorted.length * 0.9)]?.toFixed(1)} ms, worst ${worst.ms.toFixed(1)} ms (${JSON.stringify(worst.art)}); CPU avg ${cpuAvg.toFixed(1)} ms (load average ${os.loadavg()[0]?.toFixed(1)})`,
    );
  }
}

await main();
