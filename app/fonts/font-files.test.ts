import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FONT_FILES, fontFaceCss, unicodeRange } from './font-files';

const root = path.resolve(import.meta.dirname, '../..');

function filesUnder(dir: string, ext: RegExp): string[] {
  return fs.readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => ext.test(f) && !f.includes('.test.'))
    .map((f) => path.join(root, dir, f));
}

/** Code without its comments (they may use any character; they are never shown). */
function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

describe('font files', () => {
  it('cover every character the shop prints: pages, articles, catalogue, interface', () => {
    const covered = new Set(FONT_FILES.flatMap((f) => f.codePoints));
    const texts = [
      ...filesUnder('content', /\.md$/).map((f) => fs.readFileSync(f, 'utf8')),
      ...[...filesUnder('content', /\.ts$/), ...filesUnder('app', /\.tsx?$/), ...filesUnder('core', /\.ts$/), path.join(root, 'db/seed/catalog-data.ts')].map((f) =>
        stripComments(fs.readFileSync(f, 'utf8')),
      ),
    ];
    const missing = new Map<string, number>();
    for (const text of texts) {
      for (const ch of text) {
        const cp = ch.codePointAt(0) as number;
        if (cp < 0x20 || covered.has(cp)) continue;
        missing.set(ch, (missing.get(ch) ?? 0) + 1);
      }
    }
    expect([...missing.keys()].map((c) => `U+${(c.codePointAt(0) as number).toString(16).toUpperCase()} ${c}`)).toEqual([]);
  });

  it('are the ones app/styles/fonts.css declares (run scripts/subset-fonts.ts after a change)', () => {
    expect(fs.readFileSync(path.join(root, 'app/styles/fonts.css'), 'utf8')).toBe(fontFaceCss());
    for (const file of FONT_FILES) {
      const font = fs.readFileSync(path.join(root, 'app/fonts', file.name));
      expect(font.subarray(0, 4).toString('latin1')).toBe('wOF2');
    }
  });
});

describe('unicodeRange', () => {
  it('collapses runs and keeps single code points', () => {
    expect(unicodeRange([0x41, 0x42, 0x43, 0x20bd, 0x2116, 0x45])).toBe('U+0041-0043, U+0045, U+20BD, U+2116');
    expect(unicodeRange([0x20, 0x20])).toBe('U+0020');
  });
});
