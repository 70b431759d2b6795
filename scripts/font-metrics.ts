// Metric overrides for the fallback faces (issue #26): until the brand's fonts are in, text is
// set in a system font scaled to the same average width (size-adjust) and line metrics
// (ascent/descent/line-gap-override), so it takes the same room and nothing moves if the brand
// font is used on the next page. The numbers are measured here from the shop's font files and
// the metric-compatible Liberation fonts (same advance widths and vertical metrics as Arial
// and Times New Roman), over the letters of the shop's own texts; app/fonts/font-files.ts keeps
// the result (FALLBACK_FACES). Run: node --import tsx scripts/font-metrics.ts
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as hb from 'harfbuzzjs';
import fontverter from 'fontverter';
import { FONT_FILES, type FallbackFace } from '~/app/fonts/font-files';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const LIBERATION_DIR = '/usr/share/fonts/truetype/liberation';

interface LoadedFont {
  /** Held so the collector does not free the font's data while it is in use. */
  keep: [hb.Blob, hb.Face];
  font: hb.Font;
  upem: number;
  extents: { ascender: number; descender: number; lineGap: number };
}

async function load(file: string, wght?: number): Promise<LoadedFont> {
  let bytes: Buffer = fs.readFileSync(file);
  if (bytes.toString('latin1', 0, 4) === 'wOF2') bytes = await fontverter.convert(bytes, 'sfnt');
  const blob = new hb.Blob(new Uint8Array(bytes));
  const face = new hb.Face(blob);
  const font = new hb.Font(face);
  if (wght !== undefined) font.setVariations([new hb.Variation('wght', wght)]);
  return { keep: [blob, face], font, upem: face.upem, extents: font.hExtents() };
}

function advance(font: hb.Font, ch: string): number {
  const buffer = new hb.Buffer();
  buffer.addText(ch);
  buffer.guessSegmentProperties();
  hb.shape(font, buffer);
  const [info] = buffer.getGlyphInfos();
  // Glyph 0 is .notdef: the file does not hold the character.
  return info && info.codepoint !== 0 ? buffer.getGlyphPositions().reduce((sum, p) => sum + p.xAdvance, 0) : Number.NaN;
}

/** How often each character appears in the shop's pages (content/pages/*.md, markup left out). */
export function letterFrequencies(): Map<string, number> {
  const dir = path.join(root, 'content/pages');
  const counts = new Map<string, number>();
  for (const name of fs.readdirSync(dir).filter((n) => n.endsWith('.md'))) {
    const text = fs
      .readFileSync(path.join(dir, name), 'utf8')
      .replace(/^---[\s\S]*?---/, '')
      .replace(/\]\([^)]*\)/g, ']')
      .replace(/[#*_>[\]|`\n\r]/g, ' ')
      .replace(/ {2,}/g, ' ');
    for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  }
  return counts;
}

/** The average advance (in em) of the text, each character in whichever of `fonts` holds it. */
function averageWidth(fonts: LoadedFont[], counts: Map<string, number>, only: Set<string>): number {
  let total = 0;
  let n = 0;
  for (const [ch, count] of counts) {
    if (!only.has(ch)) continue;
    for (const f of fonts) {
      const a = advance(f.font, ch);
      if (Number.isFinite(a)) {
        total += (a / f.upem) * count;
        n += count;
        break;
      }
    }
  }
  return total / n;
}

const percent = (v: number) => Math.round(v * 10_000) / 100;

/** The fallback faces with overrides measured from the files (rounded to 0.01%). */
export async function measureFallbackFaces(): Promise<FallbackFace[]> {
  const counts = letterFrequencies();
  const specs = [
    {
      family: 'Manrope Variable',
      weight: '200 500',
      wght: 400,
      local: 'LiberationSans-Regular.ttf',
      srcs: ['Arial', 'ArialMT', 'Liberation Sans', 'LiberationSans', 'Arimo'],
    },
    {
      family: 'Manrope Variable',
      weight: '600 800',
      wght: 700,
      local: 'LiberationSans-Bold.ttf',
      srcs: ['Arial Bold', 'Arial-BoldMT', 'Liberation Sans Bold', 'LiberationSans-Bold', 'Arimo Bold'],
    },
    {
      family: 'Cormorant Garamond',
      weight: '500',
      wght: undefined,
      local: 'LiberationSerif-Regular.ttf',
      srcs: ['Times New Roman', 'TimesNewRomanPSMT', 'Liberation Serif', 'LiberationSerif', 'Tinos'],
    },
  ] as const;
  const faces: FallbackFace[] = [];
  for (const spec of specs) {
    const files = FONT_FILES.filter((f) => f.family === spec.family);
    // One after the other: converted at once, the first face came out empty.
    const web: LoadedFont[] = [];
    for (const f of files) web.push(await load(path.join(root, 'app/fonts', f.name), spec.wght));
    const fallback = await load(path.join(LIBERATION_DIR, spec.local));
    // Only characters both sides hold (the rest fall further back anyway).
    const both = new Set(
      [...counts.keys()].filter(
        (ch) => web.some((f) => Number.isFinite(advance(f.font, ch))) && Number.isFinite(advance(fallback.font, ch)),
      ),
    );
    const sizeAdjust = averageWidth(web, counts, both) / averageWidth([fallback], counts, both);
    const [{ extents, upem }] = web as [LoadedFont];
    faces.push({
      family: `${spec.family} Fallback`,
      weight: spec.weight,
      local: [...spec.srcs],
      sizeAdjust: percent(sizeAdjust),
      // size-adjust scales these too: divided by it, the line is the brand font's.
      ascentOverride: percent(extents.ascender / upem / sizeAdjust),
      descentOverride: percent(Math.abs(extents.descender) / upem / sizeAdjust),
      lineGapOverride: percent(extents.lineGap / upem / sizeAdjust),
    });
  }
  return faces;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(await measureFallbackFaces(), null, 2));
}
