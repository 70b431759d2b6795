import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ART_HEIGHT, ART_WIDTH, GARMENT_KINDS, garmentSvg, isGarmentArt, renderGarmentJpeg } from './garment-art';
import type { GarmentArt } from './garment-art';

const coat: GarmentArt = { kind: 'coat', color: '#b8874e', view: 0, seed: 7 };

describe('garmentSvg', () => {
  it('is deterministic', () => {
    expect(garmentSvg(coat)).toBe(garmentSvg({ ...coat }));
    for (const kind of GARMENT_KINDS) {
      for (let view = 0; view < 5; view++) {
        const art: GarmentArt = { kind, color: '#1e2a44', view, seed: 42 };
        expect(garmentSvg(art)).toBe(garmentSvg({ ...art }));
      }
    }
  });

  it('differs between kinds, colours, views and seeds', () => {
    const svgs = new Set<string>();
    for (const kind of GARMENT_KINDS) svgs.add(garmentSvg({ ...coat, kind }));
    expect(svgs.size).toBe(GARMENT_KINDS.length);
    expect(garmentSvg({ ...coat, color: '#141414' })).not.toBe(garmentSvg(coat));
    const views = new Set([0, 1, 2, 3, 4].map((view) => garmentSvg({ ...coat, view })));
    expect(views.size).toBe(5);
    expect(garmentSvg({ ...coat, seed: 8 })).not.toBe(garmentSvg(coat));
  });

  it('is a 1200×1600 SVG without text', () => {
    const svg = garmentSvg(coat);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).toContain(`width="${ART_WIDTH}" height="${ART_HEIGHT}"`);
    for (const kind of GARMENT_KINDS) expect(garmentSvg({ ...coat, kind })).not.toMatch(/<text|NaN|undefined|Infinity/);
  });

  it('never injects a colour that is not #rrggbb', () => {
    const evil = [
      'red"/><script>alert(1)</script><rect fill="',
      'url(javascript:alert(1))',
      '#12345',
      '#gggggg',
      'rgb(1,2,3)',
      '',
    ];
    for (const color of evil) {
      const svg = garmentSvg({ ...coat, color } as GarmentArt);
      expect(svg).not.toContain('script');
      expect(svg).not.toContain('javascript');
      expect(svg).not.toContain(color || '\u0000');
    }
    // junk everywhere still yields a well-formed picture
    const junk = { kind: 'spaceship', color: 42, view: 99, seed: Number.NaN } as unknown as GarmentArt;
    expect(garmentSvg(junk)).toMatch(/^<svg[\s\S]*<\/svg>$/);
  });
});

describe('isGarmentArt', () => {
  it('accepts valid art', () => {
    expect(isGarmentArt(coat)).toBe(true);
    expect(isGarmentArt({ kind: 'gift-card', color: '#ABCDEF', view: 4, seed: -3 })).toBe(true);
  });

  it('takes a gift card nominal only as a whole positive number of roubles, and draws it', () => {
    expect(isGarmentArt({ kind: 'gift-card', color: '#141414', view: 0, seed: 1, nominal: 10_000 })).toBe(true);
    for (const nominal of [0, -5, 1.5, '10000', 1e9, Number.NaN])
      expect(isGarmentArt({ kind: 'gift-card', color: '#141414', view: 0, seed: 1, nominal })).toBe(false);
    // The card with a nominal has more strokes than the plain one (the digits and the rouble sign).
    const plain = garmentSvg({ kind: 'gift-card', color: '#141414', view: 0, seed: 1 });
    const withNominal = garmentSvg({ kind: 'gift-card', color: '#141414', view: 0, seed: 1, nominal: 50_000 });
    expect(withNominal.length).toBeGreaterThan(plain.length);
    expect(withNominal).toContain('M14 100V0H38');
  });

  it('rejects junk', () => {
    const junk: unknown[] = [
      null,
      undefined,
      42,
      'coat',
      [],
      {},
      { ...coat, kind: 'spaceship' },
      { ...coat, kind: undefined },
      { ...coat, color: 'red' },
      { ...coat, color: '#abc' },
      { ...coat, color: '#b8874e"/><script>' },
      { ...coat, view: 5 },
      { ...coat, view: -1 },
      { ...coat, view: 1.5 },
      { ...coat, view: '1' },
      { ...coat, seed: 1.5 },
      { ...coat, seed: Number.NaN },
      { ...coat, seed: '7' },
      { kind: 'coat', color: '#b8874e', view: 0 },
    ];
    for (const value of junk) expect(isGarmentArt(value), JSON.stringify(value)).toBe(false);
  });
});

describe('renderGarmentJpeg', () => {
  it('renders every kind as a 1200×1600 JPEG (front view)', { timeout: 20_000 }, async () => {
    const metas = await Promise.all(
      GARMENT_KINDS.map(async (kind, i) =>
        sharp(await renderGarmentJpeg({ kind, color: i % 2 ? '#141414' : '#f7f6f2', view: 0, seed: i })).metadata(),
      ),
    );
    metas.forEach((meta, i) => {
      const kind = GARMENT_KINDS[i];
      expect(meta.format, kind).toBe('jpeg');
      expect([meta.width, meta.height], kind).toEqual([ART_WIDTH, ART_HEIGHT]);
    });
  });

  it('renders all five views of one kind', { timeout: 10_000 }, async () => {
    for (let view = 0; view < 5; view++) {
      const jpeg = await renderGarmentJpeg({ kind: 'jeans', color: '#2a3560', view, seed: 3 });
      const meta = await sharp(jpeg).metadata();
      expect(meta.format).toBe('jpeg');
      expect([meta.width, meta.height]).toEqual([ART_WIDTH, ART_HEIGHT]);
    }
  });
});
