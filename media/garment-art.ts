/**
 * Deterministic demo product photos: a garment of a given kind and colour drawn as SVG
 * on a studio backdrop, rendered to JPEG with sharp (librsvg). Pure and seedable, so a
 * photo can be re-rendered byte-for-byte from the small JSON stored with the product.
 *
 * Performance notes (librsvg/cairo): linear gradients cost ~6–7 ns per covered pixel,
 * full-frame radial gradients and blur filters are much dearer, and patterns are only
 * fast when their tiles stay integer-aligned in device space — so patterns are used only
 * in untransformed full-frame layers (close-ups, flat-lay surface), never inside the
 * scaled/rotated garment group, where repeating gradients stand in for textures.
 */
import { loadSharp } from './sharp';
import { GARMENT_KINDS, type GarmentKind } from '~/shared/art';

export { GARMENT_KINDS, type GarmentKind };

export interface GarmentArt {
  kind: GarmentKind;
  /** '#rrggbb' */
  color: string;
  /** 0 front, 1 back, 2 on a hanger / three-quarter, 3 close-up detail, 4 flat lay */
  view: number;
  /** Integer: small deterministic variations (backdrop tone, tilt, folds). */
  seed: number;
  /** Gift cards only: the nominal in roubles, drawn on the card's face. */
  nominal?: number;
}

export const ART_WIDTH = 1200;
export const ART_HEIGHT = 1600;

const HEX = /^#[0-9a-fA-F]{6}$/;
const KIND_SET: ReadonlySet<string> = new Set(GARMENT_KINDS);
const FALLBACK_COLOR = '#8e8e8c';

/** Validates a JSON value read back from the database. */
export function isGarmentArt(value: unknown): value is GarmentArt {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.kind === 'string' &&
    KIND_SET.has(v.kind) &&
    typeof v.color === 'string' &&
    HEX.test(v.color) &&
    typeof v.view === 'number' &&
    Number.isInteger(v.view) &&
    v.view >= 0 &&
    v.view <= 4 &&
    typeof v.seed === 'number' &&
    Number.isSafeInteger(v.seed) &&
    (v.nominal === undefined ||
      (typeof v.nominal === 'number' && Number.isSafeInteger(v.nominal) && v.nominal > 0 && v.nominal < 10_000_000))
  );
}

/** SVG -> 1200×1600 JPEG. */
export async function renderGarmentJpeg(art: GarmentArt): Promise<Buffer> {
  // The SVG is opaque and exactly ART_WIDTH×ART_HEIGHT at the default 72 dpi.
  const sharp = await loadSharp();
  return sharp(Buffer.from(garmentSvg(art)))
    .jpeg({ quality: 82, mozjpeg: true })
    .toBuffer();
}

// ---------------------------------------------------------------------------
// Small utilities
// ---------------------------------------------------------------------------

type Pt = readonly [number, number];
type Rng = () => number;

const fmt = (n: number): string => String(Math.round(n * 10) / 10);

/** Template tag for path data: numbers are rounded to 0.1. */
function d(strings: TemplateStringsArray, ...vals: number[]): string {
  let out = strings[0] ?? '';
  for (let i = 0; i < vals.length; i++) out += fmt(vals[i] ?? 0) + (strings[i + 1] ?? '');
  return out;
}

const add = (a: Pt, b: Pt): Pt => [a[0] + b[0], a[1] + b[1]];
const sub = (a: Pt, b: Pt): Pt => [a[0] - b[0], a[1] - b[1]];
const mul = (a: Pt, k: number): Pt => [a[0] * k, a[1] * k];
const lerp = (a: Pt, b: Pt, t: number): Pt => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
const len = (a: Pt): number => Math.hypot(a[0], a[1]);
const P2 = (p: Pt): string => `${fmt(p[0])} ${fmt(p[1])}`;

function hashStr(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

function makeRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const rnd = (rng: Rng, a: number, b: number): number => a + (b - a) * rng();

// ---------------------------------------------------------------------------
// Colour
// ---------------------------------------------------------------------------

type RGB = readonly [number, number, number];

function rgbOf(hex: string): RGB {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function hexOf(c: RGB): string {
  return (
    '#' +
    c
      .map((v) =>
        Math.max(0, Math.min(255, Math.round(v)))
          .toString(16)
          .padStart(2, '0'),
      )
      .join('')
  );
}

function mix(a: string, b: string, t: number): string {
  const x = rgbOf(a);
  const y = rgbOf(b);
  return hexOf([x[0] + (y[0] - x[0]) * t, x[1] + (y[1] - x[1]) * t, x[2] + (y[2] - x[2]) * t]);
}

const shade = (c: string, t: number): string => mix(c, '#000000', t);
const tint = (c: string, t: number): string => mix(c, '#ffffff', t);

function lumOf(c: string): number {
  const [r, g, b] = rgbOf(c);
  return (0.299 * r + 0.587 * g + 0.114 * b) / 255;
}

interface Pal {
  base: string;
  lum: number;
  isDark: boolean;
  isLight: boolean;
  /** outline: a rim light on dark colours, a darker edge on light ones */
  edge: string;
  /** seams and creases */
  seam: string;
  /** inside of the garment (lining, neck opening) */
  deep: string;
  /** tone-on-tone topstitching */
  stitch: string;
  /** a slightly different tone for bands, collars, cuffs */
  band: string;
  /** buttons */
  button: string;
  /** opacity of black shading / white highlights */
  sh: number;
  hi: number;
}

function palette(base: string): Pal {
  const lum = lumOf(base);
  const isDark = lum < 0.3;
  const isLight = lum > 0.78;
  return {
    base,
    lum,
    isDark,
    isLight,
    edge: isDark ? tint(base, 0.3) : isLight ? shade(base, 0.3) : shade(base, 0.4),
    seam: isDark ? tint(base, 0.2) : shade(base, isLight ? 0.22 : 0.32),
    deep: isDark ? tint(base, 0.04) : shade(base, isLight ? 0.28 : 0.45),
    stitch: isDark ? tint(base, 0.3) : shade(base, isLight ? 0.25 : 0.3),
    band: isDark ? tint(base, 0.06) : shade(base, 0.07),
    button: isDark ? tint(base, 0.22) : isLight ? shade(base, 0.35) : shade(base, 0.45),
    sh: isDark ? 0.5 : isLight ? 0.2 : 0.34,
    hi: isDark ? 0.16 : isLight ? 0.3 : 0.13,
  };
}

// ---------------------------------------------------------------------------
// SVG defs
// ---------------------------------------------------------------------------

type Stop = readonly [offset: number, color: string, opacity: number];

function stops(list: readonly Stop[]): string {
  return list
    .map(
      ([o, c, a]) =>
        `<stop offset="${fmt(o * 100)}%" stop-color="${c}" stop-opacity="${Math.round(a * 1000) / 1000}"/>`,
    )
    .join('');
}

function linGrad(id: string, axis: 'x' | 'y' | 'd', list: readonly Stop[]): string {
  const xy =
    axis === 'x'
      ? 'x1="0" y1="0" x2="1" y2="0"'
      : axis === 'y'
        ? 'x1="0" y1="0" x2="0" y2="1"'
        : 'x1="0" y1="0" x2="1" y2="1"';
  return `<linearGradient id="${id}" ${xy}>${stops(list)}</linearGradient>`;
}

/** A user-space gradient from a to b, optionally repeating (stripes, ribs, quilting). */
function userGrad(id: string, a: Pt, b: Pt, list: readonly Stop[], repeat = false): string {
  return `<linearGradient id="${id}" gradientUnits="userSpaceOnUse" x1="${fmt(a[0])}" y1="${fmt(a[1])}" x2="${fmt(b[0])}" y2="${fmt(b[1])}"${repeat ? ' spreadMethod="repeat"' : ''}>${stops(list)}</linearGradient>`;
}

function radGrad(id: string, list: readonly Stop[], extra = ''): string {
  return `<radialGradient id="${id}" ${extra}>${stops(list)}</radialGradient>`;
}

function commonDefs(P: Pal): string {
  const a = P.sh;
  const h = P.hi;
  return [
    // cylinder shading across a part: light from the upper left
    linGrad('gh', 'x', [
      [0, '#000', a],
      [0.14, '#000', a * 0.4],
      [0.36, '#fff', h * 0.7],
      [0.5, '#fff', h],
      [0.66, '#000', 0],
      [0.86, '#000', a * 0.35],
      [1, '#000', a * 1.05],
    ]),
    linGrad('gv', 'y', [
      [0, '#fff', h * 0.5],
      [0.3, '#fff', 0],
      [0.75, '#000', a * 0.12],
      [1, '#000', a * 0.45],
    ]),
    // flat lay: much flatter light
    linGrad('gflat', 'd', [
      [0, '#fff', h * 0.8],
      [0.5, '#fff', 0],
      [1, '#000', a * 0.35],
    ]),
    radGrad('rf', [
      [0, '#000', 0.42],
      [0.5, '#000', 0.18],
      [1, '#000', 0],
    ]),
    radGrad('rl', [
      [0, '#fff', 0.5],
      [0.5, '#fff', 0.2],
      [1, '#fff', 0],
    ]),
    // fabric sheen for lapels, collars, bands
    linGrad('gband', 'y', [
      [0, '#fff', h * 0.8],
      [1, '#000', a * 0.4],
    ]),
    // knit ribs, 9 units per rib
    userGrad(
      'rib',
      [0, 0],
      [9, 0],
      [
        [0, '#000', 0.2],
        [0.35, '#fff', 0.07],
        [0.65, '#fff', 0.07],
        [1, '#000', 0.2],
      ],
      true,
    ),
    // hardware
    linGrad('metal', 'd', [
      [0, '#f7f4ee', 1],
      [0.35, '#c9c3b8', 1],
      [0.6, '#8f887d', 1],
      [1, '#ded8cc', 1],
    ]),
    linGrad('gold', 'd', [
      [0, '#f6e3a8', 1],
      [0.4, '#c9a45a', 1],
      [0.7, '#8e6e31', 1],
      [1, '#e4c77f', 1],
    ]),
    linGrad('copper', 'd', [
      [0, '#f0c49a', 1],
      [0.45, '#b87440', 1],
      [1, '#6e3e1c', 1],
    ]),
    linGrad('wood', 'y', [
      [0, '#d2ad84', 1],
      [0.45, '#a87a4f', 1],
      [1, '#6f4a2d', 1],
    ]),
    radGrad(
      'btn',
      [
        [0, tint(P.button, 0.25), 1],
        [0.7, P.button, 1],
        [1, shade(P.button, 0.35), 1],
      ],
      'cx="35%" cy="32%" r="70%"',
    ),
    radGrad('floor', [
      [0, '#000', 0.34],
      [0.55, '#000', 0.16],
      [1, '#000', 0],
    ]),
  ].join('');
}

// ---------------------------------------------------------------------------
// Figure: drawing primitives collected in garment space, fitted to the frame later
// ---------------------------------------------------------------------------

class Fig {
  els: string[] = [];
  defs: string[] = [];
  /** silhouette paths, for cast shadows */
  sil: string[] = [];
  x0 = Infinity;
  y0 = Infinity;
  x1 = -Infinity;
  y1 = -Infinity;
  /** stands on the floor (contact shadow) rather than floating */
  ground = false;
  /** max share of frame height / width */
  fillH = 0.7;
  fillW = 0.8;

  add(...s: string[]): void {
    this.els.push(...s);
  }

  ext(x: number, y: number): void {
    this.x0 = Math.min(this.x0, x);
    this.x1 = Math.max(this.x1, x);
    this.y0 = Math.min(this.y0, y);
    this.y1 = Math.max(this.y1, y);
  }

  box(x0: number, y0: number, x1: number, y1: number): void {
    this.ext(x0, y0);
    this.ext(x1, y1);
  }
}

interface VolOpts {
  fill?: string;
  grad?: string;
  vgrad?: string | null;
  stroke?: string;
  sw?: number;
  sil?: boolean;
}

/** A part with volume: base colour, cylinder shading, vertical falloff, outline. */
function vol(f: Fig, P: Pal, path: string, o: VolOpts = {}): void {
  f.add(`<path d="${path}" fill="${o.fill ?? P.base}"/>`);
  if (o.grad !== '') f.add(`<path d="${path}" fill="url(#${o.grad ?? 'gh'})"/>`);
  if (o.vgrad !== null) f.add(`<path d="${path}" fill="url(#${o.vgrad ?? 'gv'})"/>`);
  f.add(
    `<path d="${path}" fill="none" stroke="${o.stroke ?? P.edge}" stroke-width="${o.sw ?? 2.6}" stroke-linejoin="round"/>`,
  );
  if (o.sil !== false) f.sil.push(path);
}

const shift = (svg: string, dx: number, dy: number): string =>
  `<g transform="translate(${fmt(dx)} ${fmt(dy)})">${svg}</g>`;

function line(path: string, color: string, width: number, opacity = 1, extra = ''): string {
  return `<path d="${path}" fill="none" stroke="${color}" stroke-width="${fmt(width)}"${opacity < 1 ? ` stroke-opacity="${Math.round(opacity * 100) / 100}"` : ''} stroke-linecap="round" stroke-linejoin="round"${extra}/>`;
}

/** A seam: a groove (dark line) with a soft lit edge beside it. */
function seam(P: Pal, path: string, w = 2.2): string {
  return (
    line(path, P.isDark ? '#000' : P.seam, w + 1.6, P.isDark ? 0.5 : 0.7) +
    `<path d="${path}" fill="none" stroke="#fff" stroke-opacity="${P.isDark ? 0.12 : 0.18}" stroke-width="${fmt(w)}" transform="translate(1.5 1.8)"/>`
  );
}

/** Topstitching: a dashed line. */
function stitch(path: string, color: string, w = 1.8, dash = '7 5', opacity = 0.85): string {
  return line(path, color, w, opacity, ` stroke-dasharray="${dash}"`);
}

/** A soft fold (or highlight) between two points: an elongated ellipse with a radial falloff, so every edge is soft. */
function fold(a: Pt, b: Pt, w: number, strength: number, bend = 0, light = false): string {
  const v = sub(b, a);
  const l = len(v) || 1;
  const c = add(lerp(a, b, 0.5), [(-v[1] / l) * bend * 0.5, (v[0] / l) * bend * 0.5]);
  const angle = (Math.atan2(-v[0], v[1]) * 180) / Math.PI;
  return `<ellipse cx="${fmt(c[0])}" cy="${fmt(c[1])}" rx="${fmt(w * 1.3)}" ry="${fmt(l / 2 + w * 0.5)}" transform="rotate(${fmt(angle)} ${fmt(c[0])} ${fmt(c[1])})" fill="url(#${light ? 'rl' : 'rf'})" fill-opacity="${Math.round(Math.min(1, strength) * 100) / 100}"/>`;
}

/** A drape fold: a shadow with a highlight on its lit side. */
function drape(P: Pal, a: Pt, b: Pt, w: number, strength: number, bend = 0): string {
  const v = sub(b, a);
  const l = len(v) || 1;
  const n: Pt = [(-v[1] / l) * w * 1.1, (v[0] / l) * w * 1.1];
  return (
    fold(a, b, w, strength, bend) +
    fold(add(a, mul(n, -1)), add(b, mul(n, -1)), w * 0.8, strength * (P.isDark ? 0.5 : 0.7), bend, true)
  );
}

/** A hanging fold opening towards the hem: a soft shadow with a lit ridge, pointed at the top. */
function button(x: number, y: number, r: number, holes = 4, fill = 'url(#btn)', rim = '#000'): string {
  let s = `<circle cx="${fmt(x + r * 0.12)}" cy="${fmt(y + r * 0.2)}" r="${fmt(r * 1.04)}" fill="#000" fill-opacity=".28"/>`;
  s += `<circle cx="${fmt(x)}" cy="${fmt(y)}" r="${fmt(r)}" fill="${fill}" stroke="${rim}" stroke-opacity=".35" stroke-width="${fmt(Math.max(1, r * 0.08))}"/>`;
  s += `<circle cx="${fmt(x)}" cy="${fmt(y)}" r="${fmt(r * 0.72)}" fill="none" stroke="#000" stroke-opacity=".18" stroke-width="${fmt(Math.max(1, r * 0.07))}"/>`;
  if (holes > 0) {
    const o = r * 0.24;
    const hr = Math.max(1, r * 0.1);
    const pts: Pt[] =
      holes === 2
        ? [
            [-o, 0],
            [o, 0],
          ]
        : [
            [-o, -o],
            [o, -o],
            [-o, o],
            [o, o],
          ];
    s += pts
      .map(
        ([hx, hy]) => `<circle cx="${fmt(x + hx)}" cy="${fmt(y + hy)}" r="${fmt(hr)}" fill="#000" fill-opacity=".45"/>`,
      )
      .join('');
  }
  return s;
}

function metalButton(x: number, y: number, r: number, grad = 'metal'): string {
  return (
    `<circle cx="${fmt(x + r * 0.15)}" cy="${fmt(y + r * 0.22)}" r="${fmt(r)}" fill="#000" fill-opacity=".3"/>` +
    `<circle cx="${fmt(x)}" cy="${fmt(y)}" r="${fmt(r)}" fill="url(#${grad})" stroke="#4a4238" stroke-opacity=".6" stroke-width="${fmt(r * 0.08)}"/>` +
    `<circle cx="${fmt(x)}" cy="${fmt(y)}" r="${fmt(r * 0.62)}" fill="none" stroke="#3b342c" stroke-opacity=".45" stroke-width="${fmt(r * 0.1)}"/>` +
    `<circle cx="${fmt(x - r * 0.3)}" cy="${fmt(y - r * 0.3)}" r="${fmt(r * 0.18)}" fill="#fff" fill-opacity=".7"/>`
  );
}

/** Bumpy outline through points (puffer channels, fur): Q segments bulging outwards. */
function bumpy(points: readonly Pt[], step: number, amp: number, rng: Rng | null, closed: boolean, orient = 1): string {
  const first = points[0];
  if (!first) return '';
  let s = `M${P2(first)}`;
  const n = points.length;
  const last = closed ? n : n - 1;
  for (let i = 0; i < last; i++) {
    const a = points[i];
    const b = points[(i + 1) % n];
    if (!a || !b) continue;
    const v = sub(b, a);
    const l = len(v);
    const k = Math.max(1, Math.round(l / step));
    const nrm: Pt = [(v[1] / (l || 1)) * orient, (-v[0] / (l || 1)) * orient];
    for (let j = 0; j < k; j++) {
      const p = lerp(a, b, (j + 1) / k);
      const m = lerp(a, b, (j + 0.5) / k);
      const am = rng ? amp * (0.45 + rng() * 0.9) : amp;
      const jitter: Pt = rng ? [(rng() - 0.5) * amp * 0.8, (rng() - 0.5) * amp * 0.8] : [0, 0];
      s += `Q${P2(add(add(m, mul(nrm, am)), jitter))} ${P2(p)}`;
    }
  }
  return closed ? s + 'Z' : s;
}

// ---------------------------------------------------------------------------
// Tops, coats, dresses: one parametric body
// ---------------------------------------------------------------------------

type Neck = 'crew' | 'v' | 'scoop' | 'square' | 'notch' | 'shirt' | 'stand' | 'shawl' | 'fur' | 'bow';
type Closure = 'none' | 'single' | 'double' | 'zip' | 'placket' | 'band';
type Pockets = 'none' | 'flap' | 'patch' | 'welt' | 'denim' | 'blazer' | 'zip';
type Cuff = 'none' | 'rib' | 'band' | 'strap' | 'buttons' | 'gather';
type SleeveKind = 'long' | 'short' | 'none';

interface TopSpec {
  neckW: number;
  neckDepth: number;
  shoulderW: number;
  shoulderDrop: number;
  chestW: number;
  armpitY: number;
  waistW: number;
  waistY: number;
  hemW: number;
  length: number;
  hemCurve: number;
  sleeve: SleeveKind;
  sleeveLen: number;
  cuffW: number;
  sleeveAngle: number;
  sleeveBulge: number;
  cuff: Cuff;
  neck: Neck;
  lapelW: number;
  closure: Closure;
  buttons: number;
  buttonR: number;
  pockets: Pockets;
  belt: 'none' | 'buckle' | 'tie';
  hemBand: 'none' | 'rib' | 'band';
  quilt: number;
  knit: boolean;
  yoke: boolean;
  trench: boolean;
  fluffy: boolean;
  denim: boolean;
  folds: number;
  seams: boolean;
}

const TOP: TopSpec = {
  neckW: 56,
  neckDepth: 60,
  shoulderW: 180,
  shoulderDrop: 32,
  chestW: 178,
  armpitY: 250,
  waistW: 168,
  waistY: 420,
  hemW: 180,
  length: 700,
  hemCurve: 4,
  sleeve: 'long',
  sleeveLen: 600,
  cuffW: 86,
  sleeveAngle: 9,
  sleeveBulge: 8,
  cuff: 'none',
  neck: 'crew',
  lapelW: 76,
  closure: 'none',
  buttons: 0,
  buttonR: 14,
  pockets: 'none',
  belt: 'none',
  hemBand: 'none',
  quilt: 0,
  knit: false,
  yoke: false,
  trench: false,
  fluffy: false,
  denim: false,
  folds: 2,
  seams: false,
};

const top = (o: Partial<TopSpec>): TopSpec => ({ ...TOP, ...o });

const TOP_SPECS: Partial<Record<GarmentKind, TopSpec>> = {
  coat: top({
    neckW: 58,
    neckDepth: 430,
    shoulderW: 180,
    shoulderDrop: 34,
    chestW: 180,
    armpitY: 255,
    waistW: 170,
    waistY: 430,
    hemW: 214,
    length: 1010,
    sleeveLen: 610,
    cuffW: 94,
    sleeveAngle: 9,
    neck: 'notch',
    lapelW: 80,
    closure: 'single',
    buttons: 3,
    buttonR: 16,
    pockets: 'flap',
    cuff: 'buttons',
    folds: 3,
    seams: true,
  }),
  'warm-coat': top({
    neckW: 64,
    neckDepth: 60,
    shoulderW: 192,
    shoulderDrop: 38,
    chestW: 194,
    armpitY: 268,
    waistW: 178,
    waistY: 440,
    hemW: 232,
    length: 1060,
    sleeveLen: 600,
    cuffW: 104,
    sleeveAngle: 10,
    sleeveBulge: 12,
    neck: 'stand',
    closure: 'double',
    buttons: 4,
    buttonR: 17,
    pockets: 'welt',
    belt: 'tie',
    folds: 3,
    seams: true,
  }),
  trench: top({
    neckW: 56,
    neckDepth: 400,
    shoulderW: 178,
    shoulderDrop: 34,
    chestW: 178,
    armpitY: 252,
    waistW: 150,
    waistY: 420,
    hemW: 226,
    length: 1030,
    sleeveLen: 610,
    cuffW: 92,
    sleeveAngle: 9,
    neck: 'notch',
    lapelW: 98,
    closure: 'double',
    buttons: 3,
    buttonR: 13,
    pockets: 'welt',
    belt: 'buckle',
    cuff: 'strap',
    trench: true,
    folds: 4,
    seams: true,
  }),
  puffer: top({
    neckW: 62,
    neckDepth: 40,
    shoulderW: 192,
    shoulderDrop: 40,
    chestW: 196,
    armpitY: 265,
    waistW: 198,
    waistY: 430,
    hemW: 194,
    length: 740,
    sleeveLen: 590,
    cuffW: 118,
    sleeveAngle: 16,
    sleeveBulge: 14,
    neck: 'stand',
    closure: 'zip',
    pockets: 'zip',
    cuff: 'band',
    quilt: 92,
    folds: 0,
  }),
  blazer: top({
    neckW: 52,
    neckDepth: 390,
    shoulderW: 176,
    shoulderDrop: 28,
    chestW: 172,
    armpitY: 240,
    waistW: 150,
    waistY: 400,
    hemW: 172,
    length: 720,
    hemCurve: 0,
    sleeveLen: 590,
    cuffW: 82,
    sleeveAngle: 7,
    neck: 'notch',
    lapelW: 72,
    closure: 'single',
    buttons: 2,
    buttonR: 14,
    pockets: 'blazer',
    cuff: 'buttons',
    folds: 2,
    seams: true,
  }),
  sweater: top({
    neckW: 62,
    neckDepth: 56,
    shoulderW: 214,
    shoulderDrop: 52,
    chestW: 204,
    armpitY: 310,
    waistW: 198,
    waistY: 440,
    hemW: 186,
    length: 660,
    sleeveLen: 520,
    cuffW: 86,
    sleeveAngle: 15,
    sleeveBulge: 16,
    neck: 'crew',
    cuff: 'rib',
    hemBand: 'rib',
    knit: true,
    folds: 1,
  }),
  cardigan: top({
    neckW: 56,
    neckDepth: 320,
    shoulderW: 192,
    shoulderDrop: 44,
    chestW: 190,
    armpitY: 275,
    waistW: 180,
    waistY: 430,
    hemW: 182,
    length: 680,
    sleeveLen: 560,
    cuffW: 80,
    sleeveAngle: 12,
    sleeveBulge: 12,
    neck: 'shawl',
    closure: 'band',
    buttons: 5,
    buttonR: 12,
    pockets: 'patch',
    cuff: 'rib',
    hemBand: 'rib',
    knit: true,
    folds: 2,
  }),
  'knit-top': top({
    neckW: 58,
    neckDepth: 64,
    shoulderW: 162,
    shoulderDrop: 30,
    chestW: 162,
    armpitY: 222,
    waistW: 140,
    waistY: 380,
    hemW: 150,
    length: 560,
    sleeve: 'short',
    sleeveLen: 150,
    cuffW: 92,
    sleeveAngle: 24,
    sleeveBulge: 4,
    neck: 'crew',
    cuff: 'rib',
    hemBand: 'rib',
    knit: true,
    folds: 1,
  }),
  shirt: top({
    neckW: 46,
    neckDepth: 30,
    shoulderW: 182,
    shoulderDrop: 32,
    chestW: 180,
    armpitY: 255,
    waistW: 172,
    waistY: 430,
    hemW: 176,
    length: 780,
    hemCurve: 40,
    sleeveLen: 610,
    cuffW: 80,
    sleeveAngle: 9,
    neck: 'shirt',
    closure: 'placket',
    buttons: 7,
    buttonR: 7.5,
    pockets: 'patch',
    cuff: 'band',
    yoke: true,
    folds: 3,
  }),
  blouse: top({
    neckW: 54,
    neckDepth: 160,
    shoulderW: 168,
    shoulderDrop: 34,
    chestW: 176,
    armpitY: 240,
    waistW: 160,
    waistY: 400,
    hemW: 186,
    length: 650,
    hemCurve: 12,
    sleeveLen: 590,
    cuffW: 70,
    sleeveAngle: 11,
    sleeveBulge: 30,
    neck: 'bow',
    cuff: 'gather',
    folds: 4,
  }),
  tshirt: top({
    neckW: 56,
    neckDepth: 52,
    shoulderW: 186,
    shoulderDrop: 34,
    chestW: 182,
    armpitY: 250,
    waistW: 180,
    waistY: 420,
    hemW: 180,
    length: 640,
    sleeve: 'short',
    sleeveLen: 190,
    cuffW: 128,
    sleeveAngle: 27,
    sleeveBulge: 4,
    neck: 'crew',
    folds: 2,
  }),
  top: top({
    neckW: 72,
    neckDepth: 104,
    shoulderW: 106,
    shoulderDrop: 8,
    chestW: 166,
    armpitY: 205,
    waistW: 146,
    waistY: 380,
    hemW: 160,
    length: 560,
    hemCurve: 6,
    sleeve: 'none',
    neck: 'square',
    folds: 3,
  }),
  'denim-jacket': top({
    neckW: 50,
    neckDepth: 30,
    shoulderW: 186,
    shoulderDrop: 32,
    chestW: 186,
    armpitY: 250,
    waistW: 182,
    waistY: 400,
    hemW: 178,
    length: 580,
    hemCurve: 0,
    sleeveLen: 590,
    cuffW: 88,
    sleeveAngle: 10,
    neck: 'shirt',
    closure: 'placket',
    buttons: 6,
    buttonR: 11,
    pockets: 'denim',
    cuff: 'band',
    hemBand: 'band',
    yoke: true,
    denim: true,
    folds: 2,
  }),
  'fur-coat': top({
    neckW: 66,
    neckDepth: 420,
    shoulderW: 198,
    shoulderDrop: 44,
    chestW: 204,
    armpitY: 272,
    waistW: 198,
    waistY: 430,
    hemW: 236,
    length: 900,
    sleeveLen: 560,
    cuffW: 124,
    sleeveAngle: 12,
    sleeveBulge: 14,
    neck: 'fur',
    fluffy: true,
    folds: 0,
  }),
  dress: top({
    neckW: 62,
    neckDepth: 190,
    shoulderW: 146,
    shoulderDrop: 26,
    chestW: 160,
    armpitY: 218,
    waistW: 124,
    waistY: 400,
    hemW: 124,
    length: 400,
    sleeve: 'short',
    sleeveLen: 160,
    cuffW: 110,
    sleeveAngle: 24,
    sleeveBulge: 10,
    neck: 'v',
    belt: 'tie',
    folds: 0,
  }),
  jumpsuit: top({
    neckW: 64,
    neckDepth: 220,
    shoulderW: 150,
    shoulderDrop: 26,
    chestW: 164,
    armpitY: 222,
    waistW: 138,
    waistY: 420,
    hemW: 138,
    length: 420,
    sleeve: 'short',
    sleeveLen: 140,
    cuffW: 104,
    sleeveAngle: 22,
    sleeveBulge: 6,
    neck: 'v',
    belt: 'tie',
    closure: 'none',
    folds: 0,
  }),
};

interface SleeveGeo {
  O1: Pt;
  O2: Pt;
  I2: Pt;
  A: Pt;
  dir: Pt;
  nrm: Pt;
  at: (t: number, u: number) => Pt;
  path: string;
}

function sleeveGeo(s: TopSpec, sign: number, angDeg: number, lenScale = 1): SleeveGeo {
  const a = (angDeg * Math.PI) / 180;
  const dir: Pt = [sign * Math.sin(a), Math.cos(a)];
  const nrm: Pt = [sign * Math.cos(a), -Math.sin(a)];
  const O1: Pt = [sign * (s.shoulderW + 2), s.shoulderDrop + 2];
  const O2 = add(O1, mul(dir, s.sleeveLen * lenScale));
  const I2 = add(O2, mul(nrm, -s.cuffW));
  const A: Pt = [sign * (s.chestW - 6), s.armpitY];
  const at = (t: number, u: number): Pt => lerp(lerp(O1, O2, t), lerp(A, I2, t), u);
  const bulge = add(lerp(O1, O2, 0.42), mul(nrm, s.sleeveBulge));
  const cuffC = add(lerp(O2, I2, 0.5), mul(dir, 6));
  const innerC = add(lerp(I2, A, 0.5), mul(nrm, -4));
  const in1: Pt = [A[0] - sign * 50, A[1] - 60];
  const in2: Pt = [O1[0] - sign * 40, O1[1] + 12];
  // a rounded sleeve cap continuing the shoulder line
  const N: Pt = [sign * s.neckW, 0];
  const S: Pt = [sign * s.shoulderW, s.shoulderDrop];
  const capStart = lerp(N, S, 0.82);
  const capCtl = add(S, [sign * 6, -2]);
  const capEnd = add(add(O1, mul(dir, Math.min(70, s.sleeveLen * 0.25))), mul(nrm, s.sleeveBulge * 0.4));
  const path = `M${P2(capStart)}Q${P2(capCtl)} ${P2(capEnd)}Q${P2(bulge)} ${P2(O2)}Q${P2(cuffC)} ${P2(I2)}Q${P2(innerC)} ${P2(A)}L${P2(in1)}L${P2(in2)}Z`;
  return { O1, O2, I2, A, dir, nrm, at, path };
}

/** x of the body side at height y (right side), following the outline curves roughly. */
function sideX(s: TopSpec, y: number): number {
  const ss = (t: number): number => t * t * (3 - 2 * t);
  if (y <= s.armpitY) return s.chestW;
  if (y <= s.waistY) return s.chestW + (s.waistW - s.chestW) * ss((y - s.armpitY) / (s.waistY - s.armpitY));
  return s.waistW + (s.hemW - s.waistW) * ss(Math.min(1, (y - s.waistY) / Math.max(1, s.length - s.waistY)));
}

function neckFront(s: TopSpec): string {
  const nw = s.neckW;
  const dp = s.neckDepth;
  switch (s.neck) {
    case 'crew':
    case 'shirt':
    case 'stand':
      return d`Q0 ${dp * 2} ${nw} 0`;
    case 'scoop':
      return d`C${-nw * 0.9} ${dp * 1.3} ${nw * 0.9} ${dp * 1.3} ${nw} 0`;
    case 'square':
      return d`L${-nw} ${dp - 14}Q${-nw} ${dp} ${-nw + 14} ${dp}L${nw - 14} ${dp}Q${nw} ${dp} ${nw} ${dp - 14}L${nw} 0`;
    default:
      return d`L0 ${dp}L${nw} 0`;
  }
}

function bodyPath(s: TopSpec, neck: string): string {
  const {
    neckW: nw,
    shoulderW: sw,
    shoulderDrop: sd,
    chestW: cw,
    armpitY: ay,
    waistW: ww,
    waistY: wy,
    hemW: hw,
    length: L,
    hemCurve: hc,
  } = s;
  const sleeveless = s.sleeve === 'none';
  const armR = sleeveless ? d`Q${sw - 4} ${ay - 30} ${cw} ${ay}` : d`Q${cw - 4} ${sd + (ay - sd) * 0.55} ${cw} ${ay}`;
  const armL = sleeveless
    ? d`Q${-(sw - 4)} ${ay - 30} ${-sw} ${sd}`
    : d`Q${-(cw - 4)} ${sd + (ay - sd) * 0.55} ${-sw} ${sd}`;
  const k1 = (wy - ay) * 0.45;
  const k2 = (L - wy) * 0.35;
  return (
    d`M${-nw} 0` +
    neck +
    d`L${sw} ${sd}` +
    armR +
    d`C${cw} ${ay + k1} ${ww} ${wy - k1 * 0.8} ${ww} ${wy}C${ww} ${wy + k2} ${hw - (hw - ww) * 0.2} ${L - k2} ${hw} ${L}` +
    d`Q0 ${L + hc * 2} ${-hw} ${L}` +
    d`C${-(hw - (hw - ww) * 0.2)} ${L - k2} ${-ww} ${wy + k2} ${-ww} ${wy}C${-ww} ${wy - k1 * 0.8} ${-cw} ${ay + k1} ${-cw} ${ay}` +
    armL +
    'Z'
  );
}

/** Outline points of the body for bumpy (puffer/fur) outlines, clockwise from the left neck point. */
function bodyPoints(s: TopSpec, ys: readonly number[]): { right: Pt[]; left: Pt[] } {
  const right: Pt[] = ys.map((y) => [sideX(s, y), y]);
  const left: Pt[] = [...ys].reverse().map((y) => [-sideX(s, y), y]);
  return { right, left };
}

function drawTop(f: Fig, P: Pal, s: TopSpec, view: number, rng: Rng, opts: { skirtBelow?: boolean } = {}): void {
  const back = view === 1;
  const hang = view === 2;
  const flat = view === 4;
  const {
    neckW: nw,
    shoulderW: sw,
    shoulderDrop: sd,
    chestW: cw,
    armpitY: ay,
    waistW: ww,
    waistY: wy,
    hemW: hw,
    length: L,
    hemCurve: hc,
  } = s;
  const angle = flat
    ? s.sleeveAngle + (s.sleeve === 'short' ? 10 : 22)
    : hang
      ? Math.max(3, s.sleeveAngle * 0.55)
      : s.sleeveAngle;
  const grad = flat ? 'gflat' : 'gh';
  const vgrad = flat ? null : 'gv';
  const hasCollar =
    s.neck === 'notch' || s.neck === 'shirt' || s.neck === 'stand' || s.neck === 'fur' || s.neck === 'shawl';
  const collarTop = s.neck === 'stand' ? -90 : s.neck === 'fur' ? -46 : hasCollar ? -30 : -4;

  // --- outline ---
  const neck = back ? d`Q0 ${s.neck === 'square' || s.neck === 'scoop' ? 60 : 26} ${nw} 0` : neckFront(s);
  let body: string;
  if (s.quilt > 0 || s.fluffy) {
    const step = s.quilt > 0 ? s.quilt : 46;
    const ys: number[] = [];
    for (let y = ay; y < L - step * 0.5; y += step) ys.push(y);
    ys.push(L);
    const { right, left } = bodyPoints(s, ys);
    const amp = s.quilt > 0 ? 9 : 10;
    const r = s.fluffy ? rng : null;
    const shoulderR: Pt[] = [
      [nw, 0],
      [sw, sd],
      [cw, ay],
    ];
    const rightSide = bumpy([[cw, ay], ...right.slice(1)], step, amp, r, false);
    const hemPts: Pt[] = [
      [hw, L],
      [-hw, L],
    ];
    const hem = s.fluffy ? bumpy(hemPts, 40, 9, r, false) : d`M${hw} ${L}Q0 ${L + hc * 2} ${-hw} ${L}`;
    const leftSide = bumpy([[-hw, L], ...left.slice(1)], step, amp, r, false);
    const shoulderL = s.fluffy
      ? bumpy(
          [
            [-cw, ay],
            [-sw, sd],
            [-nw, 0],
          ],
          40,
          8,
          r,
          false,
        )
      : d`M${-cw} ${ay}Q${-(cw - 4)} ${sd + (ay - sd) * 0.55} ${-sw} ${sd}L${-nw} 0`;
    const shR = s.fluffy
      ? bumpy(shoulderR, 40, 8, r, false)
      : d`M${nw} 0L${sw} ${sd}Q${cw - 4} ${sd + (ay - sd) * 0.55} ${cw} ${ay}`;
    const strip = (p: string): string => p.replace(/^M[^QLC]+/, '');
    body = d`M${-nw} 0` + neck + strip(shR) + strip(rightSide) + strip(hem) + strip(leftSide) + strip(shoulderL) + 'Z';
  } else {
    body = bodyPath(s, neck);
  }
  f.box(-Math.max(hw, cw, sw, ww) - 4, collarTop, Math.max(hw, cw, sw, ww) + 4, L + Math.max(0, hc));

  // --- the inside of the back, seen through the front neck opening ---
  if (!back) {
    const dip = 16;
    f.add(
      `<path d="${d`M${-nw} 0Q0 ${dip * 2} ${nw} 0L${nw} ${s.neckDepth + 20}L${-nw} ${s.neckDepth + 20}Z`}" fill="${P.deep}"/>`,
    );
    f.add(
      `<path d="${d`M${-nw} 0Q0 ${dip * 2} ${nw} 0L${nw} ${dip + 40}Q0 ${dip * 2 + 40} ${-nw} ${dip + 40}Z`}" fill="#000" fill-opacity=".25"/>`,
    );
  }
  if (hang) drawHangerBar(f, s);

  // --- sleeves ---
  const sleeves: SleeveGeo[] = [];
  if (s.sleeve !== 'none') {
    for (const sign of [-1, 1]) {
      const g = sleeveGeo(s, sign, angle);
      sleeves.push(g);
      const tail = `L${P2([g.A[0] - sign * 50, g.A[1] - 60])}L${P2([g.O1[0] - sign * 40, g.O1[1] + 12])}Z`;
      let path = g.path;
      if (s.fluffy) path = bumpy([g.O1, g.O2, g.I2, g.A], 40, 9, rng, false, sign) + tail;
      else if (s.quilt > 0) {
        const n = Math.max(1, Math.round(s.sleeveLen / s.quilt));
        const outer = bumpy([g.O1, g.O2], s.sleeveLen / n, 8, null, false, sign);
        const inner = bumpy([g.I2, g.A], len(sub(g.A, g.I2)) / Math.max(1, n - 1), 8, null, false, sign).replace(
          /^M[^Q]+/,
          '',
        );
        path = outer + `Q${P2(add(lerp(g.O2, g.I2, 0.5), mul(g.dir, 6)))} ${P2(g.I2)}` + inner + tail;
      }
      vol(f, P, path, { grad, vgrad });
      for (const p of [g.O2, g.I2]) f.ext(p[0], p[1]);
      drawSleeveDetails(f, P, s, g, sign, view, rng);
    }
  }

  // --- body ---
  vol(f, P, body, { grad, vgrad });
  f.defs.push(`<clipPath id="cb"><path d="${body}"/></clipPath>`);
  if (s.knit)
    f.add(
      `<path d="${body}" fill="url(#rib)" fill-opacity="${s.neck === 'crew' && s.sleeve === 'short' ? 0.9 : 0.45}"/>`,
    );
  if (s.denim) f.add(`<path d="${body}" fill="url(#twill)"/>`);
  if (s.quilt > 0) drawQuilt(f, P, s, flat);
  if (s.fluffy) drawFur(f, P, s, rng);

  // --- folds ---
  const g: string[] = [];
  for (let i = 0; i < s.folds; i++) {
    const side = i % 2 === 0 ? 1 : -1;
    const x = side * rnd(rng, 0.25, 0.6) * hw;
    const y0 = rnd(rng, Math.max(ay, wy - 60), wy + 60);
    g.push(
      drape(
        P,
        [x * 0.9, y0],
        [x + side * rnd(rng, 5, 30), L + 80],
        rnd(rng, 13, 20),
        rnd(rng, 0.4, 0.65) * (P.isLight ? 0.6 : 1),
      ),
    );
  }
  if (flat) g.push(fold([-hw * 0.5, L * 0.5], [hw * 0.3, L * 0.62], 16, 0.22, 6));
  f.add(`<g clip-path="url(#cb)">${g.join('')}</g>`);

  if (back) drawTopBack(f, P, s, rng);
  else drawTopFront(f, P, s, rng);

  // --- hem ---
  if (s.hemBand !== 'none') {
    const bh = s.hemBand === 'rib' ? 64 : 50;
    const xt = sideX(s, L - bh) + 1;
    const band = d`M${-xt} ${L - bh}Q0 ${L - bh + hc * 2} ${xt} ${L - bh}L${hw} ${L}Q0 ${L + hc * 2} ${-hw} ${L}Z`;
    f.add(`<path d="${band}" fill="${P.band}"/>`);
    if (s.hemBand === 'rib') f.add(`<path d="${band}" fill="url(#rib)"/><path d="${band}" fill="url(#rib)"/>`);
    f.add(`<path d="${band}" fill="url(#${grad})"/>`);
    f.add(seam(P, d`M${-xt} ${L - bh}Q0 ${L - bh + hc * 2} ${xt} ${L - bh}`));
    if (s.hemBand === 'band') {
      f.add(stitch(d`M${-xt + 4} ${L - bh + 10}L${xt - 4} ${L - bh + 10}`, s.denim ? '#c8893b' : P.stitch));
      f.add(stitch(d`M${-hw + 6} ${L - 10}L${hw - 6} ${L - 10}`, s.denim ? '#c8893b' : P.stitch));
      if (s.denim) for (const sx of [-1, 1]) f.add(metalButton(sx * (hw - 44), L - bh / 2, 9, 'copper'));
    }
    f.add(`<path d="${band}" fill="none" stroke="${P.edge}" stroke-width="2.6"/>`);
  } else if (!s.fluffy && !opts.skirtBelow) {
    f.add(
      stitch(
        d`M${-hw + 8} ${L - 20}Q0 ${L - 20 + hc * 2} ${hw - 8} ${L - 20}`,
        s.denim ? '#c8893b' : P.stitch,
        1.6,
        '6 5',
        0.6,
      ),
    );
  }

  // --- belt ---
  if (s.belt !== 'none' && !opts.skirtBelow) drawBelt(f, P, s, back, rng);
  if (hang) drawHangerHook(f, collarTop);
}

function drawSleeveDetails(f: Fig, P: Pal, s: TopSpec, g: SleeveGeo, sign: number, view: number, rng: Rng): void {
  const parts: string[] = [];
  // elbow creases and a lit ridge along the outer edge
  if (s.sleeve === 'long' && !s.fluffy) {
    const t = rnd(rng, 0.5, 0.6);
    parts.push(fold(g.at(t, 1), g.at(t + 0.06, 0.3), 16, 0.26, 8));
    parts.push(fold(g.at(t + 0.12, 0.95), g.at(t + 0.15, 0.5), 12, 0.18, -6));
    parts.push(fold(g.at(0.12, 0.3), g.at(0.9, 0.25), 12, P.isDark ? 0.35 : 0.4, 0, true));
  } else if (s.sleeve === 'short') {
    parts.push(fold(g.at(0.3, 0.9), g.at(0.8, 0.55), 9, 0.3, 4));
  }
  if (s.quilt > 0) {
    const n = Math.round(s.sleeveLen / s.quilt);
    const id = `cs${sign > 0 ? 'r' : 'l'}`;
    f.defs.push(`<clipPath id="${id}"><path d="${g.path}"/></clipPath>`);
    let seams = '';
    for (let i = 1; i < n; i++) {
      const p0 = add(add(g.O1, mul(g.dir, (s.sleeveLen * i) / n)), mul(g.nrm, 30));
      seams += `M${P2(p0)}L${P2(add(p0, mul(g.nrm, -260)))}`;
    }
    parts.push(`<g clip-path="url(#${id})">${line(seams, '#000', 3, 0.4)}</g>`);
    f.defs.push(
      userGrad(`qs${sign > 0 ? 'r' : 'l'}`, g.O1, add(g.O1, mul(g.dir, s.sleeveLen / n)), quiltStops(P), true),
    );
    parts.unshift(`<path d="${g.path}" fill="url(#qs${sign > 0 ? 'r' : 'l'})"/>`);
  }
  if (s.knit) parts.unshift(`<path d="${g.path}" fill="url(#rib)" fill-opacity=".45"/>`);
  if (s.denim) parts.unshift(`<path d="${g.path}" fill="url(#twill)"/>`);
  // cuff
  const cuffH = s.cuff === 'rib' ? 70 : s.cuff === 'band' ? 58 : s.cuff === 'gather' ? 44 : 0;
  if (cuffH > 0 && s.sleeve === 'long') {
    const tl = 1 - cuffH / s.sleeveLen;
    const a = g.at(tl, 0);
    const b = g.at(tl, 1);
    const shrink = s.cuff === 'gather' ? 0.12 : s.cuff === 'rib' ? 0.06 : 0;
    const o2 = g.at(1, shrink);
    const i2 = g.at(1, 1 - shrink);
    const cuff = `M${P2(a)}L${P2(o2)}L${P2(i2)}L${P2(b)}Z`;
    parts.push(`<path d="${cuff}" fill="${P.band}" stroke="${P.edge}" stroke-width="2.4"/>`);
    if (s.cuff === 'rib') {
      const id = `cr${sign > 0 ? 'r' : 'l'}`;
      f.defs.push(
        userGrad(
          id,
          a,
          add(a, mul(g.nrm, -8)),
          [
            [0, '#000', 0.25],
            [0.5, '#fff', 0.08],
            [1, '#000', 0.25],
          ],
          true,
        ),
      );
      parts.push(`<path d="${cuff}" fill="url(#${id})"/>`);
    }
    parts.push(`<path d="${cuff}" fill="url(#gh)"/>`);
    parts.push(seam(P, `M${P2(a)}L${P2(b)}`));
    if (s.cuff === 'gather') {
      for (let i = 1; i < 6; i++) parts.push(fold(g.at(tl - 0.12, i / 6), g.at(tl, i / 6), 5, 0.35));
    }
    if (s.cuff === 'band') {
      if (s.denim)
        parts.push(metalButton(...lerp(g.at(tl + (1 - tl) / 2, 0.2), g.at(tl + (1 - tl) / 2, 0.2), 0), 8, 'copper'));
      else if (s.quilt === 0) parts.push(button(...g.at(tl + (1 - tl) / 2, 0.22), 6, 2));
      parts.push(
        stitch(`M${P2(g.at(tl + 0.02, 0.04))}L${P2(g.at(tl + 0.02, 0.96))}`, s.denim ? '#c8893b' : P.stitch, 1.5),
      );
    }
  } else if (s.sleeve === 'long') {
    parts.push(stitch(`M${P2(g.at(0.95, 0.03))}L${P2(g.at(0.95, 0.97))}`, P.stitch, 1.5, '6 5', 0.6));
  } else if (s.sleeve === 'short') {
    if (s.cuff === 'rib') {
      const cb = `M${P2(g.at(0.7, 0))}L${P2(g.O2)}L${P2(g.I2)}L${P2(g.at(0.7, 1))}Z`;
      parts.push(`<path d="${cb}" fill="url(#rib)"/>`, seam(P, `M${P2(g.at(0.7, 0))}L${P2(g.at(0.7, 1))}`));
    } else parts.push(stitch(`M${P2(g.at(0.88, 0.03))}L${P2(g.at(0.88, 0.97))}`, P.stitch, 1.5, '6 5', 0.7));
  }
  if (s.cuff === 'buttons' && s.sleeve === 'long' && view !== 1) {
    for (let i = 0; i < 3; i++) parts.push(button(...g.at(0.9 - i * 0.035, 0.2), 5.5, 2));
  }
  if (s.cuff === 'strap' && s.sleeve === 'long') {
    const a = g.at(0.8, -0.02);
    const b = g.at(0.8, 1.02);
    const c = g.at(0.86, 1.02);
    const e = g.at(0.86, -0.02);
    parts.push(
      `<path d="M${P2(a)}L${P2(b)}L${P2(c)}L${P2(e)}Z" fill="${P.band}" stroke="${P.edge}" stroke-width="2"/>`,
    );
    parts.push(`<path d="M${P2(a)}L${P2(b)}L${P2(c)}L${P2(e)}Z" fill="url(#gband)"/>`);
    const m = g.at(0.83, 0.3);
    parts.push(
      `<rect x="${fmt(m[0] - 13)}" y="${fmt(m[1] - 17)}" width="26" height="34" rx="4" fill="none" stroke="url(#metal)" stroke-width="5"/>`,
    );
  }
  f.add(`<g>${parts.join('')}</g>`);
}

function quiltStops(P: Pal): Stop[] {
  return [
    [0, '#000', P.isDark ? 0.55 : 0.4],
    [0.1, '#000', 0.12],
    [0.38, '#fff', P.isDark ? 0.2 : 0.28],
    [0.55, '#fff', P.isDark ? 0.14 : 0.18],
    [0.85, '#000', 0.1],
    [1, '#000', P.isDark ? 0.55 : 0.4],
  ];
}

function drawQuilt(f: Fig, P: Pal, s: TopSpec, flat: boolean): void {
  const q = s.quilt;
  f.defs.push(userGrad('qz', [0, s.armpitY], [0, s.armpitY + q], quiltStops(P), true));
  const parts: string[] = [
    `<rect x="-400" y="${fmt(s.shoulderDrop - 40)}" width="800" height="${fmt(s.length + 80)}" fill="url(#qz)"/>`,
  ];
  let seams = '';
  for (let y = s.armpitY; y < s.length - q * 0.5; y += q) seams += d`M-400 ${y}L400 ${y}`;
  seams += d`M-400 ${s.armpitY - q}Q0 ${s.armpitY - q + 18} 400 ${s.armpitY - q}`;
  parts.push(line(seams, '#000', 3, flat ? 0.3 : 0.4));
  f.add(`<g clip-path="url(#cb)">${parts.join('')}</g>`);
}

function drawFur(f: Fig, P: Pal, s: TopSpec, rng: Rng): void {
  let dark = '';
  let light = '';
  const count = 260;
  for (let i = 0; i < count; i++) {
    const x = rnd(rng, -s.hemW, s.hemW);
    const y = rnd(rng, 0, s.length);
    const l = rnd(rng, 18, 40);
    const bend = rnd(rng, -10, 10);
    const seg = d`M${x} ${y}q${bend} ${l * 0.5} ${bend * 0.4 + rnd(rng, -6, 6)} ${l}`;
    if (i % 2) dark += seg;
    else light += seg;
  }
  f.add(
    `<g clip-path="url(#cb)">${line(dark, '#000', 3.2, P.isDark ? 0.35 : 0.16)}${line(light, '#fff', 2.4, P.isDark ? 0.1 : 0.16)}</g>`,
  );
}

function drawTopFront(f: Fig, P: Pal, s: TopSpec, rng: Rng): void {
  const { neckW: nw, neckDepth: dp, shoulderW: sw, shoulderDrop: sd, armpitY: ay, waistY: wy, hemW: hw, length: L } = s;
  const stitchC = s.denim ? '#c8893b' : P.stitch;
  const dbl = s.closure === 'double';
  const edgeX = dbl ? 74 : s.closure === 'single' ? s.buttonR * 1.6 + 4 : 0;

  // --- collars ---
  if (s.neck === 'crew') {
    const c = d`M${-nw} 0Q0 ${dp * 2} ${nw} 0`;
    f.add(
      line(d`M${-nw} 0Q0 32 ${nw} 0`, P.band, 14),
      line(c, P.band, 20),
      `<path d="${c}" fill="none" stroke="url(#rib)" stroke-width="20"/>`,
      line(c, P.edge, 2, 0.6, ' transform="translate(0 -10)"'),
      shift(seam(P, c, 1.6), 0, 10),
    );
  } else if (s.neck === 'v' || s.neck === 'scoop' || s.neck === 'square') {
    f.add(`<path d="M${fmt(-nw)} 0${neckFront(s)}" fill="none" stroke="${P.edge}" stroke-width="2.6"/>`);
    f.add(
      stitch(
        `M${fmt(-nw + 2)} 12${neckFront({ ...s, neckW: nw - 2, neckDepth: dp + 10 }).replace(/ 0$/, ' 12')}`,
        stitchC,
        1.4,
        '5 4',
        0.6,
      ),
    );
  } else if (s.neck === 'bow') {
    drawBow(f, P, s);
  } else if (s.neck === 'shirt') {
    drawShirtCollar(f, P, nw, s.denim ? stitchC : null);
  } else if (s.neck === 'stand') {
    drawStandCollar(f, P, s, false);
  } else if (s.neck === 'notch') {
    // collar around the back of the neck
    const ct = nw + 24;
    vol(f, P, d`M${-ct} -16Q0 -40 ${ct} -16L${nw} 6Q0 26 ${-nw} 6Z`, {
      grad: 'gband',
      vgrad: null,
      fill: P.band,
      sil: false,
    });
    for (const sign of [1, -1]) drawLapel(f, P, s, sign, edgeX, stitchC);
  } else if (s.neck === 'shawl') {
    // knitted band from the back of the neck down the fronts
    f.add(line(d`M${-nw - 6} 4Q0 36 ${nw + 6} 4`, P.band, 30));
    for (const sign of [-1, 1]) {
      const band = d`M${sign * (nw + 6)} 4L${sign * 14} ${dp}L${sign * 14} ${L}`;
      f.add(
        line(band, P.edge, 32),
        line(band, P.band, 28),
        `<path d="${band}" fill="none" stroke="url(#rib)" stroke-width="28"/>`,
      );
    }
  } else if (s.neck === 'fur') {
    drawFurCollar(f, P, s, rng);
  }

  // --- closures ---
  if (s.closure === 'single' || dbl) {
    const top = s.neck === 'notch' ? dp : s.neck === 'stand' ? 30 : 40;
    f.add(seam(P, d`M${edgeX} ${top}L${edgeX} ${L - 2}`, 2.6));
    f.add(stitch(d`M${edgeX - 10} ${top + 14}L${edgeX - 10} ${L - 14}`, stitchC, 1.4, '6 5', 0.5));
    const n = s.buttons;
    const y0 = s.neck === 'notch' ? dp - 2 : s.neck === 'stand' ? 70 : 90;
    const y1 = Math.min(
      L - 120,
      Math.max(y0 + 92 * (n - 1), y0 + (wy - y0) * (dbl ? 1.35 : 1.05) + (s.length > 900 ? 120 : 0)),
    );
    for (let i = 0; i < n; i++) {
      const y = n === 1 ? y0 : y0 + ((y1 - y0) * i) / (n - 1);
      if (dbl) {
        if (i % 2 === 1 && s.neck === 'stand') continue;
        f.add(button(-46, y, s.buttonR), button(46, y, s.buttonR));
      } else f.add(button(0, y, s.buttonR));
    }
  } else if (s.closure === 'zip') {
    const top = s.neck === 'stand' ? -70 : 20;
    f.add(
      line(d`M0 ${top}L0 ${L}`, shade(P.base, 0.3), 12),
      line(d`M0 ${top}L0 ${L}`, '#000', 8, 0.35, ' stroke-dasharray="2 2.5"'),
    );
    f.add(
      `<rect x="-7" y="${fmt(top + 2)}" width="14" height="34" rx="4" fill="url(#metal)" stroke="#555" stroke-width="1"/>`,
    );
  } else if (s.closure === 'placket') {
    const top = 16;
    f.add(
      seam(P, d`M-15 ${top}L-15 ${L + s.hemCurve * 0.85}`, 1.6),
      seam(P, d`M15 ${top}L15 ${L + s.hemCurve * 0.85}`, 1.6),
    );
    if (s.denim)
      f.add(
        stitch(d`M-21 ${top}L-21 ${L - 2}`, stitchC, 1.6, '6 4'),
        stitch(d`M21 ${top}L21 ${L - 2}`, stitchC, 1.6, '6 4'),
      );
    const n = s.buttons;
    const y1 = L - (s.hemBand === 'band' ? 30 : 90);
    for (let i = 0; i < n; i++) {
      const y = 30 + ((y1 - 30) * i) / Math.max(1, n - 1);
      f.add(
        s.denim
          ? metalButton(0, y, s.buttonR, 'copper')
          : button(0, y, s.buttonR, 4, P.isLight ? 'url(#btn)' : tint(P.base, 0.7)),
      );
    }
  } else if (s.closure === 'band') {
    for (let i = 0; i < s.buttons; i++)
      f.add(button(14, dp + 10 + ((L - dp - 110) * i) / Math.max(1, s.buttons - 1), s.buttonR));
  }

  // --- pockets ---
  const py = Math.max(wy + 70, L - (L - wy) * 0.62);
  if (s.pockets === 'flap' || s.pockets === 'blazer') {
    for (const sign of [-1, 1]) {
      const cx = sign * (hw * 0.55 + (s.pockets === 'blazer' ? 0 : 6));
      const w = s.pockets === 'blazer' ? 128 : 150;
      const flap = d`M${cx - w / 2} ${py}L${cx + w / 2} ${py + sign * 3}L${cx + w / 2 - 2} ${py + 46}Q${cx + w / 2 - 2} ${py + 52} ${cx + w / 2 - 8} ${py + 52}L${cx - w / 2 + 8} ${py + 52 - sign * 3}Q${cx - w / 2 + 2} ${py + 52} ${cx - w / 2 + 2} ${py + 46}Z`;
      f.add(`<path d="${flap}" fill="#000" fill-opacity=".25" transform="translate(2 5)"/>`);
      vol(f, P, flap, { grad: 'gband', vgrad: null, sil: false, sw: 2 });
      f.add(stitch(d`M${cx - w / 2 + 8} ${py + 42}L${cx + w / 2 - 8} ${py + 42}`, stitchC, 1.2, '4 4', 0.5));
    }
    if (s.pockets === 'blazer')
      f.add(
        seam(P, d`M${-sw * 0.66} ${ay - 40}L${-sw * 0.28} ${ay - 46}`, 3),
        line(d`M${-sw * 0.66} ${ay - 40}L${-sw * 0.28} ${ay - 46}`, P.band, 8, 0.7, ' transform="translate(0 -5)"'),
      );
  } else if (s.pockets === 'welt' || s.pockets === 'zip') {
    for (const sign of [-1, 1]) {
      const x0 = sign * hw * 0.38;
      const x1 = sign * hw * 0.62;
      const a: Pt = [x0, py - 10];
      const b: Pt = [x1, py + 110];
      f.add(line(`M${P2(a)}L${P2(b)}`, '#000', s.pockets === 'zip' ? 7 : 4, 0.45));
      if (s.pockets === 'zip')
        f.add(
          line(`M${P2(a)}L${P2(b)}`, '#000', 4, 0.3, ' stroke-dasharray="2 2" transform="translate(-3 0)"'),
          `<rect x="${fmt(a[0] - 4)}" y="${fmt(a[1] - 2)}" width="8" height="24" rx="3" fill="url(#metal)"/>`,
        );
      else
        f.add(
          line(`M${P2(a)}L${P2(b)}`, P.band, 10, 0.9, ' transform="translate(-7 1)"'),
          shift(seam(P, `M${P2(a)}L${P2(b)}`), -12, 1),
        );
    }
  } else if (s.pockets === 'patch') {
    const sign = s.neck === 'shirt' ? 1 : 0;
    if (sign) {
      const x = 70;
      const y = ay - 90;
      const p = d`M${x} ${y}L${x + 84} ${y}L${x + 84} ${y + 88}L${x + 42} ${y + 98}L${x} ${y + 88}Z`;
      f.add(
        `<path d="${p}" fill="url(#gband)" stroke="${P.seam}" stroke-width="1.8"/>`,
        stitch(d`M${x} ${y + 12}L${x + 84} ${y + 12}`, stitchC, 1.2, '4 3', 0.6),
      );
    } else {
      for (const sg of [-1, 1]) {
        const x = sg * hw * 0.55;
        const y = L - 230;
        const p = d`M${x - 62} ${y}L${x + 62} ${y}L${x + 60} ${y + 130}L${x - 60} ${y + 130}Z`;
        f.add(`<path d="${p}" fill="${P.band}" stroke="${P.edge}" stroke-width="2"/>`);
        if (s.knit) f.add(`<path d="${p}" fill="url(#rib)" fill-opacity=".5"/>`);
        f.add(`<path d="${p}" fill="url(#gv)"/>`, line(d`M${x - 62} ${y + 18}L${x + 62} ${y + 18}`, P.seam, 2, 0.6));
      }
    }
  } else if (s.pockets === 'denim') {
    for (const sign of [-1, 1]) {
      const cx = sign * 92;
      const y = ay - 110;
      const pk = d`M${cx - 56} ${y}L${cx + 56} ${y}L${cx + 56} ${y + 110}L${cx} ${y + 126}L${cx - 56} ${y + 110}Z`;
      f.add(stitch(pk, stitchC, 1.8, '6 4'));
      const flap = d`M${cx - 60} ${y - 4}L${cx + 60} ${y - 4}L${cx + 60} ${y + 36}L${cx} ${y + 56}L${cx - 60} ${y + 36}Z`;
      f.add(`<path d="${flap}" fill="#000" fill-opacity=".25" transform="translate(2 4)"/>`);
      vol(f, P, flap, { grad: 'gband', vgrad: null, sil: false, sw: 2 });
      f.add(
        `<path d="${flap}" fill="url(#twill)"/>`,
        stitch(
          d`M${cx - 52} ${y + 2}L${cx - 52} ${y + 32}L${cx} ${y + 48}L${cx + 52} ${y + 32}L${cx + 52} ${y + 2}`,
          stitchC,
          1.6,
          '6 4',
        ),
        metalButton(cx, y + 34, 9, 'copper'),
      );
      // front yoke and panel seams
      f.add(
        seam(P, d`M${sign * 22} ${y - 26}L${sign * sw * 0.98} ${sd + 64}`, 2),
        stitch(d`M${sign * 22} ${y - 18}L${sign * sw * 0.98} ${sd + 72}`, stitchC, 1.6, '6 4'),
      );
      f.add(
        seam(P, d`M${cx + sign * 30} ${y + 120}L${cx + sign * 40} ${L - 50}`, 2),
        stitch(d`M${cx + sign * 38} ${y + 120}L${cx + sign * 48} ${L - 50}`, stitchC, 1.6, '6 4'),
      );
    }
  }

  // --- trench details: storm flap and epaulettes ---
  if (s.trench) {
    const sf = d`M${-nw - 10} 8L${-sw + 8} ${sd + 6}L${-sw + 2} ${ay + 10}Q${-sw * 0.6} ${ay + 40} ${-nw * 0.5} ${ay + 26}`;
    f.add(
      `<path d="${sf}" fill="none" stroke="#000" stroke-opacity=".3" stroke-width="3.5"/>`,
      shift(stitch(sf, stitchC, 1.4, '5 4', 0.6), 0, -8),
    );
  }
  if (s.trench) {
    for (const sign of [-1, 1]) {
      const a: Pt = [sign * (nw + 22), 10];
      const b: Pt = [sign * (sw - 4), sd + 2];
      const ep = `M${P2(add(a, [0, -12]))}L${P2(add(b, [0, -14]))}L${P2(add(b, [0, 14]))}L${P2(add(a, [0, 10]))}Z`;
      vol(f, P, ep, { grad: 'gband', vgrad: null, sil: false, sw: 2 });
      f.add(button(a[0] + sign * 14, a[1], 6, 2));
    }
  }
}

function drawTopBack(f: Fig, P: Pal, s: TopSpec, rng: Rng): void {
  const { neckW: nw, shoulderW: sw, armpitY: ay, length: L } = s;
  const stitchC = s.denim ? '#c8893b' : P.stitch;
  if (s.neck === 'notch' || s.neck === 'shirt' || s.neck === 'shawl') {
    const h = s.neck === 'shirt' ? 36 : 50;
    const c = d`M${-nw - 26} -14Q0 -34 ${nw + 26} -14L${nw + 40} ${h - 6}Q0 ${h + 14} ${-nw - 40} ${h - 6}Z`;
    vol(f, P, c, { grad: 'gband', vgrad: null, fill: P.band, sil: false });
    if (s.denim) f.add(stitch(d`M${-nw - 34} ${h - 14}Q0 ${h + 4} ${nw + 34} ${h - 14}`, stitchC, 1.6, '6 4'));
  } else if (s.neck === 'stand') {
    drawStandCollar(f, P, s, true);
  } else if (s.neck === 'fur') {
    const c = bumpy(
      [
        [-nw - 110, 30],
        [0, -40],
        [nw + 110, 30],
        [nw + 80, 150],
        [0, 120],
        [-nw - 80, 150],
      ],
      36,
      10,
      rng,
      true,
    );
    vol(f, P, c, { fill: tint(P.base, 0.04), sil: false });
  } else if (s.neck === 'crew') {
    const c = d`M${-nw} 0Q0 26 ${nw} 0`;
    f.add(
      line(c, P.band, 18),
      `<path d="${c}" fill="none" stroke="url(#rib)" stroke-width="18"/>`,
      seam(P, d`M${-nw - 2} 9Q0 35 ${nw + 2} 9`, 1.4),
    );
  } else if (s.neck === 'bow') {
    f.add(line(d`M${-nw} 0Q0 26 ${nw} 0`, P.band, 16));
  }
  if (s.yoke) {
    f.add(seam(P, d`M${-sw + 4} ${ay * 0.48}Q0 ${ay * 0.52} ${sw - 4} ${ay * 0.48}`, 2));
    if (s.denim) {
      f.add(stitch(d`M${-sw + 6} ${ay * 0.48 + 9}Q0 ${ay * 0.52 + 9} ${sw - 6} ${ay * 0.48 + 9}`, stitchC, 1.6, '6 4'));
      for (const sign of [-1, 1])
        f.add(
          seam(P, d`M${sign * 70} ${ay * 0.5 + 4}L${sign * 80} ${L - 50}`, 2),
          stitch(d`M${sign * 78} ${ay * 0.5 + 6}L${sign * 88} ${L - 50}`, stitchC, 1.6, '6 4'),
        );
    } else f.add(fold([0, ay * 0.52], [0, ay * 0.52 + 120], 14, 0.3));
  }
  if (s.trench) {
    // back storm flap (cape)
    const cape = d`M${-sw + 4} ${s.shoulderDrop + 4}L${-sw + 2} ${ay + 30}Q0 ${ay + 50} ${sw - 2} ${ay + 30}L${sw - 4} ${s.shoulderDrop + 4}`;
    f.add(`<path d="${cape}" fill="#000" fill-opacity=".18" transform="translate(0 6)"/>`);
    vol(f, P, cape + 'L' + fmt(nw) + ' 0Q0 26 ' + fmt(-nw) + ' 0Z', { grad: 'gband', vgrad: null, sil: false });
  }
  if (s.seams && !s.trench) f.add(seam(P, d`M0 26L0 ${L}`, 2));
  if (s.seams && L > 900) {
    // vent
    f.add(seam(P, d`M0 ${L - 260}L14 ${L - 240}L14 ${L}`, 2));
  }
  if (s.neck === 'bow' || s.neck === 'v') {
    if (s.length < 600) f.add(seam(P, d`M0 30L0 ${s.length - 10}`, 1.6));
  }
}

function drawLapel(f: Fig, P: Pal, s: TopSpec, sign: number, apexX: number, stitchC: string): void {
  const nw = s.neckW;
  const dp = s.neckDepth;
  const lw = s.lapelW;
  const N: Pt = [sign * nw, 0];
  const B: Pt = [apexX, dp];
  const Pp: Pt = [sign * (nw + lw), dp * 0.34];
  const notch: Pt = [sign * (nw + lw * 0.6), dp * 0.3];
  const C: Pt = [sign * (nw + lw * 0.72), dp * 0.2];
  const Ct: Pt = [sign * (nw + 24), -16];
  const outerC = add(lerp(B, Pp, 0.5), [sign * 16, 6]);
  const path = `M${P2(N)}L${P2(B)}Q${P2(outerC)} ${P2(Pp)}L${P2(notch)}L${P2(C)}Q${P2([sign * (nw + lw * 0.5), dp * 0.04])} ${P2(Ct)}L${P2([sign * (nw - 4), 4])}Z`;
  f.add(`<path d="${path}" fill="#000" fill-opacity=".22" transform="translate(${sign * 5} 6)"/>`);
  vol(f, P, path, { grad: 'gh', vgrad: 'gband', fill: P.band, sil: false });
  // gorge seam and roll line light
  const G = lerp(N, B, 0.2);
  f.add(seam(P, `M${P2(notch)}L${P2(G)}`, 1.6));
  f.add(line(`M${P2(lerp(N, B, 0.05))}L${P2(lerp(N, B, 0.95))}`, '#fff', 4, P.isDark ? 0.12 : 0.2));
  f.add(
    stitch(
      `M${P2(add(B, [sign * 8, -14]))}Q${P2(add(outerC, [-sign * 10, 0]))} ${P2(add(Pp, [-sign * 10, 8]))}`,
      stitchC,
      1.2,
      '4 4',
      0.5,
    ),
  );
  if (sign > 0 && !s.trench) f.add(line(`M${P2(lerp(B, Pp, 0.72))}l${fmt(sign * 18)} -4`, '#000', 3, 0.4));
}

function drawShirtCollar(f: Fig, P: Pal, nw: number, contrast: string | null): void {
  // stand around the back of the neck
  vol(f, P, d`M${-nw - 26} -8Q0 -36 ${nw + 26} -8L${nw + 8} 8Q0 30 ${-nw - 8} 8Z`, {
    fill: P.band,
    grad: 'gband',
    vgrad: null,
    sil: false,
  });
  for (const sign of [-1, 1]) {
    const leaf = d`M${sign * 3} 18L${sign * (nw + 28)} -8Q${sign * (nw + 40)} 40 ${sign * (nw + 30)} 84L${sign * 44} 96Q${sign * 22} 60 ${sign * 3} 18Z`;
    f.add(`<path d="${leaf}" fill="#000" fill-opacity=".22" transform="translate(${sign * 3} 6)"/>`);
    vol(f, P, leaf, { grad: 'gh', vgrad: 'gband', sil: false, sw: 2.2 });
    f.add(
      stitch(
        d`M${sign * 12} 26L${sign * (nw + 22)} 2Q${sign * (nw + 32)} 40 ${sign * (nw + 24)} 78L${sign * 48} 86`,
        contrast ?? P.stitch,
        1.3,
        '4 3',
        contrast ? 0.9 : 0.5,
      ),
    );
  }
}

function drawStandCollar(f: Fig, P: Pal, s: TopSpec, back: boolean): void {
  const nw = s.neckW;
  const w1 = nw + 18;
  const w0 = nw + 10;
  const tube = d`M${-w1} 12C${-w1 - 4} -30 ${-w0 - 2} -62 ${-w0} -80Q0 ${back ? -100 : -66} ${w0} -80C${w0 + 2} -62 ${w1 + 4} -30 ${w1} 12Q0 34 ${-w1} 12Z`;
  if (!back) f.add(`<path d="${d`M${-w0} -80Q0 -102 ${w0} -80Q0 -64 ${-w0} -80Z`}" fill="${P.deep}"/>`);
  f.add(`<path d="${tube}" fill="#000" fill-opacity=".2" transform="translate(0 8)"/>`);
  vol(f, P, tube, { fill: P.band, grad: 'gh', vgrad: 'gband', sil: true });
  if (s.quilt > 0) f.add(line(d`M${-w1 + 2} -34Q0 ${back ? -44 : -22} ${w1 - 2} -34`, '#000', 3, 0.35));
  else f.add(stitch(d`M${-w0 + 6} -66Q0 ${back ? -84 : -52} ${w0 - 6} -66`, P.stitch, 1.3, '5 4', 0.5));
  if (!back && s.closure === 'double') {
    // a throat tab buttoned across the collar
    const tab = d`M${-w0 + 8} -44L${w0 + 4} -50L${w0 + 4} -20L${-w0 + 10} -14Z`;
    f.add(`<path d="${tab}" fill="#000" fill-opacity=".2" transform="translate(0 5)"/>`);
    vol(f, P, tab, { fill: P.band, grad: 'gband', vgrad: null, sil: false, sw: 2 });
    f.add(button(w0 - 12, -34, s.buttonR * 0.55, 2));
  }
}

function drawFurCollar(f: Fig, P: Pal, s: TopSpec, rng: Rng): void {
  const nw = s.neckW;
  const dp = s.neckDepth;
  const back =
    bumpy(
      [
        [-nw - 40, 20],
        [-nw + 10, -44],
        [nw - 10, -44],
        [nw + 40, 20],
      ],
      30,
      8,
      rng,
      false,
    ) + 'Z';
  vol(f, P, back, { fill: shade(P.base, 0.08), sil: false, grad: 'gband', vgrad: null });
  for (const sign of [-1, 1]) {
    const pts: Pt[] = [
      [sign * (nw - 14), -30],
      [sign * (nw + 120), 30],
      [sign * (nw + 110), dp * 0.55],
      [sign * 30, dp + 20],
      [sign * 4, dp * 0.9],
      [sign * (nw - 24), 60],
    ];
    const c = bumpy(pts, 34, 11, rng, true, sign);
    f.add(`<path d="${c}" fill="#000" fill-opacity=".2" transform="translate(${sign * 4} 8)"/>`);
    vol(f, P, c, { fill: tint(P.base, P.isDark ? 0.06 : 0.03), sil: false });
    let strands = '';
    for (let i = 0; i < 40; i++) {
      const t = rng();
      const u = rng();
      const p = lerp(lerp(pts[0] ?? [0, 0], pts[3] ?? [0, 0], t), lerp(pts[1] ?? [0, 0], pts[2] ?? [0, 0], t), u * 0.8);
      strands += d`M${p[0]} ${p[1]}q${sign * rnd(rng, 4, 14)} ${rnd(rng, 10, 18)} ${sign * rnd(rng, 2, 8)} ${rnd(rng, 22, 34)}`;
    }
    f.add(line(strands, P.isDark ? '#fff' : '#000', 2.4, P.isDark ? 0.12 : 0.14));
  }
}

function drawBow(f: Fig, P: Pal, s: TopSpec): void {
  const nw = s.neckW;
  f.add(line(d`M${-nw} 0L0 ${s.neckDepth}L${nw} 0`, P.band, 14));
  f.add(line(d`M${-nw} 0L0 ${s.neckDepth}L${nw} 0`, P.edge, 1.6, 0.7, ' transform="translate(0 7)"'));
  const ky = s.neckDepth - 6;
  const tails = [
    d`M-6 ${ky}C-30 ${ky + 80} -10 ${ky + 170} -44 ${ky + 250}L-14 ${ky + 256}C0 ${ky + 180} -6 ${ky + 90} 8 ${ky + 8}Z`,
    d`M6 ${ky}C40 ${ky + 60} 30 ${ky + 150} 58 ${ky + 220}L30 ${ky + 230}C16 ${ky + 150} 12 ${ky + 80} -4 ${ky + 8}Z`,
  ];
  for (const t of tails) vol(f, P, t, { fill: P.band, sil: false, sw: 2, grad: 'gh', vgrad: null });
  for (const sign of [-1, 1]) {
    const loop = d`M0 ${ky}C${sign * 40} ${ky - 60} ${sign * 110} ${ky - 50} ${sign * 96} ${ky}C${sign * 90} ${ky + 40} ${sign * 40} ${ky + 30} 0 ${ky}Z`;
    vol(f, P, loop, { fill: P.band, sil: false, sw: 2, grad: 'gh', vgrad: null });
    f.add(fold([sign * 14, ky - 4], [sign * 80, ky - 8], 8, 0.35));
  }
  vol(f, P, d`M-16 ${ky - 20}Q0 ${ky - 26} 16 ${ky - 20}L14 ${ky + 20}Q0 ${ky + 26} -14 ${ky + 20}Z`, {
    fill: P.band,
    sil: false,
    sw: 2,
    grad: 'gh',
    vgrad: null,
  });
}

function drawBelt(f: Fig, P: Pal, s: TopSpec, back: boolean, rng: Rng): void {
  const { waistW: ww, waistY: wy } = s;
  const bh = s.trench ? 50 : s.length < 500 ? 34 : 44;
  const y = wy - bh / 2;
  const belt = d`M${-ww - 6} ${y}Q0 ${y + 8} ${ww + 6} ${y}L${ww + 6} ${y + bh}Q0 ${y + bh + 8} ${-ww - 6} ${y + bh}Z`;
  f.add(`<path d="${belt}" fill="#000" fill-opacity=".2" transform="translate(0 6)"/>`);
  vol(f, P, belt, { fill: P.band, grad: 'gh', vgrad: 'gband', sil: false, sw: 2.2 });
  f.add(
    stitch(d`M${-ww} ${y + 7}Q0 ${y + 15} ${ww} ${y + 7}`, P.stitch, 1.3, '5 4', 0.6),
    stitch(d`M${-ww} ${y + bh - 7}Q0 ${y + bh + 1} ${ww} ${y + bh - 7}`, P.stitch, 1.3, '5 4', 0.6),
  );
  // loops at the sides
  for (const sign of [-1, 1])
    f.add(
      `<rect x="${fmt(sign * (ww - 8) - 9)}" y="${fmt(y - 8)}" width="18" height="${fmt(bh + 16)}" rx="3" fill="${P.band}" stroke="${P.edge}" stroke-width="2"/>`,
    );
  if (back) return;
  if (s.belt === 'buckle') {
    const bx = -40;
    f.add(
      `<rect x="${fmt(bx - 30)}" y="${fmt(y - 8)}" width="60" height="${fmt(bh + 20)}" rx="6" fill="none" stroke="#000" stroke-opacity=".3" stroke-width="9" transform="translate(2 4)"/>`,
    );
    f.add(
      `<rect x="${fmt(bx - 30)}" y="${fmt(y - 8)}" width="60" height="${fmt(bh + 20)}" rx="6" fill="none" stroke="url(#metal)" stroke-width="8"/>`,
    );
    f.add(line(d`M${bx} ${y + bh / 2 + 4}L${bx + 36} ${y + bh / 2 + 4}`, '#8f887d', 5));
    // the tail hanging down
    const tail = d`M${bx - 40} ${y + 4}C${bx - 70} ${y + 80} ${bx - 60} ${y + 150} ${bx - 80} ${y + 230}L${bx - 40} ${y + 238}C${bx - 24} ${y + 160} ${bx - 24} ${y + 80} ${bx - 2} ${y + bh}Z`;
    vol(f, P, tail, { fill: P.band, sil: false, sw: 2 });
  } else {
    // a soft tie: knot and two ends
    const kx = rnd(rng, -20, 20);
    const e1 = d`M${kx - 8} ${y + bh / 2}C${kx - 30} ${y + 90} ${kx - 40} ${y + 170} ${kx - 70} ${y + 250}L${kx - 30} ${y + 262}C${kx - 10} ${y + 180} ${kx} ${y + 100} ${kx + 8} ${y + bh / 2}Z`;
    const e2 = d`M${kx} ${y + bh / 2}C${kx + 20} ${y + 80} ${kx + 20} ${y + 150} ${kx + 40} ${y + 220}L${kx + 76} ${y + 214}C${kx + 50} ${y + 150} ${kx + 30} ${y + 80} ${kx + 14} ${y + bh / 2}Z`;
    vol(f, P, e2, { fill: P.band, sil: false, sw: 2 });
    vol(f, P, e1, { fill: P.band, sil: false, sw: 2 });
    vol(
      f,
      P,
      d`M${kx - 30} ${y - 6}Q${kx} ${y - 14} ${kx + 30} ${y - 6}L${kx + 26} ${y + bh + 6}Q${kx} ${y + bh + 14} ${kx - 26} ${y + bh + 6}Z`,
      {
        fill: P.band,
        sil: false,
        sw: 2,
      },
    );
    f.add(fold([kx - 20, y + 6], [kx + 16, y + bh - 4], 6, 0.4));
  }
}

function drawHangerBar(f: Fig, s: TopSpec): void {
  const w = s.shoulderW * 0.92;
  const bar = d`M${-w} ${s.shoulderDrop + 14}Q0 -44 ${w} ${s.shoulderDrop + 14}L${w - 6} ${s.shoulderDrop + 34}Q0 -14 ${-w + 6} ${s.shoulderDrop + 34}Z`;
  f.add(`<path d="${bar}" fill="url(#wood)" stroke="#5a3b22" stroke-width="2"/>`);
}

function drawHangerHook(f: Fig, collarTop: number): void {
  const y = collarTop - 2;
  const hook = d`M0 ${y}L0 ${y - 70}C0 ${y - 130} 62 ${y - 130} 62 ${y - 84}C62 ${y - 62} 44 ${y - 56} 34 ${y - 64}`;
  f.add(line(hook, '#6e675e', 9), line(hook, '#d9d4cb', 3.5, 0.9, ' transform="translate(-1.5 -1.5)"'));
  f.add(
    `<rect x="-20" y="${fmt(y - 16)}" width="40" height="26" rx="6" fill="url(#wood)" stroke="#5a3b22" stroke-width="2"/>`,
  );
  f.box(-20, y - 132, 64, y);
}

// ---------------------------------------------------------------------------
// Trousers, jeans, shorts; skirts
// ---------------------------------------------------------------------------

interface BottomSpec {
  waistW: number;
  wbH: number;
  hipW: number;
  hipY: number;
  crotchY: number;
  length: number;
  outerHem: number;
  innerHem: number;
  jeans: boolean;
  crease: boolean;
  cuff: boolean;
  pleat: boolean;
}

const BOTTOM_SPECS: Partial<Record<GarmentKind, BottomSpec>> = {
  trousers: {
    waistW: 150,
    wbH: 46,
    hipW: 184,
    hipY: 230,
    crotchY: 335,
    length: 1040,
    outerHem: 206,
    innerHem: 34,
    jeans: false,
    crease: true,
    cuff: false,
    pleat: true,
  },
  jeans: {
    waistW: 152,
    wbH: 44,
    hipW: 180,
    hipY: 220,
    crotchY: 310,
    length: 1020,
    outerHem: 168,
    innerHem: 40,
    jeans: true,
    crease: false,
    cuff: false,
    pleat: false,
  },
  shorts: {
    waistW: 150,
    wbH: 46,
    hipW: 184,
    hipY: 220,
    crotchY: 320,
    length: 500,
    outerHem: 206,
    innerHem: 26,
    jeans: false,
    crease: false,
    cuff: true,
    pleat: true,
  },
};

function bottomOutline(b: BottomSpec, y0: number): { outline: string; legR: string; legL: string } {
  const { waistW: w, hipW: h, hipY: hy, crotchY: cy, length: L, outerHem: oh, innerHem: ih } = b;
  const Y = (v: number): number => y0 + v;
  const k = (L - hy) * 0.35;
  const right = d`C${w + (h - w) * 0.7} ${Y(hy * 0.35)} ${h} ${Y(hy * 0.6)} ${h} ${Y(hy)}C${h} ${Y(hy + k)} ${oh} ${Y(L - k)} ${oh} ${Y(L)}Q${(oh + ih) / 2} ${Y(L + 6)} ${ih} ${Y(L)}C${ih - 4} ${Y(L - (L - cy) * 0.5)} 16 ${Y(cy + 50)} 0 ${Y(cy)}`;
  const left = d`C-16 ${Y(cy + 50)} ${-ih + 4} ${Y(L - (L - cy) * 0.5)} ${-ih} ${Y(L)}Q${-(oh + ih) / 2} ${Y(L + 6)} ${-oh} ${Y(L)}C${-oh} ${Y(L - k)} ${-h} ${Y(hy + k)} ${-h} ${Y(hy)}C${-h} ${Y(hy * 0.6)} ${-w - (h - w) * 0.7} ${Y(hy * 0.35)} ${-w} ${Y(0)}`;
  const outline = d`M${-w} ${Y(0)}L${w} ${Y(0)}` + right + left + 'Z';
  const legR = d`M0 ${Y(0)}L${w} ${Y(0)}` + right + 'Z';
  const legL = d`M0 ${Y(cy)}` + left + d`L0 ${Y(0)}Z`;
  return { outline, legR, legL };
}

function drawBottom(f: Fig, P: Pal, b: BottomSpec, view: number, rng: Rng, y0 = 0, withWaistband = true): void {
  const back = view === 1;
  const flat = view === 4;
  const { waistW: w, wbH, hipW: h, hipY: hy, crotchY: cy, length: L, outerHem: oh, innerHem: ih } = b;
  const Y = (v: number): number => y0 + v;
  const stitchC = b.jeans ? '#c8893b' : P.stitch;
  const { outline, legR, legL } = bottomOutline(b, y0);
  f.box(-Math.max(h, oh) - 4, Y(0), Math.max(h, oh) + 4, Y(L + 8));
  f.add(`<path d="${outline}" fill="${P.base}"/>`);
  if (b.jeans) f.add(`<path d="${outline}" fill="url(#twill)"/>`);
  const g = flat ? 'gflat' : 'gh';
  f.add(`<path d="${legR}" fill="url(#${g})"/>`, `<path d="${legL}" fill="url(#${g})"/>`);
  if (!flat) f.add(`<path d="${outline}" fill="url(#gv)"/>`);
  f.sil.push(outline);
  f.defs.push(`<clipPath id="cbt"><path d="${outline}"/></clipPath>`);
  const det: string[] = [];
  // folds around the knees and at the hem
  for (const sign of [-1, 1]) {
    const xc = (sign * (oh + ih)) / 2;
    const kneeY = Y(cy + (L - cy) * rnd(rng, 0.35, 0.5));
    if (L > 700) {
      det.push(drape(P, [xc - sign * 40, kneeY], [xc + sign * 30, kneeY + 60], 9, 0.3, 4));
      det.push(fold([xc - sign * 10, Y(L - 120)], [xc + sign * 50, Y(L - 60)], 8, 0.25, 4));
    }
    det.push(fold([sign * 30, Y(cy - 40)], [sign * (ih + 40), Y(cy + 120)], 10, 0.3));
    if (b.jeans) {
      // whiskers and fading
      for (let i = 0; i < 3; i++)
        det.push(
          fold(
            [sign * (20 + i * 18), Y(cy - 30 + i * 20)],
            [sign * (110 + i * 20), Y(cy - 70 + i * 24)],
            5,
            0.45,
            2,
            true,
          ),
        );
      det.push(fold([xc, kneeY - 160], [xc, kneeY + 120], 40, 0.28, 0, true));
    }
    if (b.crease) {
      const top: Pt = [sign * h * 0.48, Y(wbH + 40)];
      const bot: Pt = [xc, Y(L - 4)];
      det.push(
        line(`M${P2(top)}L${P2(bot)}`, '#000', 2, 0.25),
        line(`M${P2(top)}L${P2(bot)}`, '#fff', 3, P.isDark ? 0.12 : 0.25, ' transform="translate(3 0)"'),
      );
    }
    // hem
    if (b.cuff) {
      const band = d`M${sign * ih} ${Y(L - 56)}L${sign * oh} ${Y(L - 56)}L${sign * oh} ${Y(L)}L${sign * ih} ${Y(L)}Z`;
      det.push(
        `<path d="${band}" fill="${P.band}" stroke="${P.edge}" stroke-width="2.4"/>`,
        `<path d="${band}" fill="url(#gband)"/>`,
        `<path d="${band}" fill="#000" fill-opacity=".15" transform="translate(0 -6) scale(1 1)"/>`,
      );
    } else
      det.push(
        stitch(
          d`M${sign * (ih + 4)} ${Y(L - 22)}L${sign * (oh - 4)} ${Y(L - 22)}`,
          stitchC,
          b.jeans ? 1.8 : 1.4,
          '6 4',
          b.jeans ? 0.9 : 0.6,
        ),
      );
  }
  f.add(`<g clip-path="url(#cbt)">${det.join('')}</g>`);
  f.add(`<path d="${outline}" fill="none" stroke="${P.edge}" stroke-width="2.6" stroke-linejoin="round"/>`);
  if (!withWaistband) return;

  // waistband
  const wb = d`M${-w} ${Y(0)}L${w} ${Y(0)}L${w + 4} ${Y(wbH)}Q0 ${Y(wbH + 4)} ${-w - 4} ${Y(wbH)}Z`;
  vol(f, P, wb, { fill: P.band, grad: 'gh', vgrad: 'gband', sil: false, sw: 2.4 });
  if (b.jeans)
    f.add(
      `<path d="${wb}" fill="url(#twill)"/>`,
      stitch(d`M${-w + 2} ${Y(8)}L${w - 2} ${Y(8)}`, stitchC, 1.6, '6 4'),
      stitch(d`M${-w - 2} ${Y(wbH - 8)}Q0 ${Y(wbH - 4)} ${w + 2} ${Y(wbH - 8)}`, stitchC, 1.6, '6 4'),
    );
  for (const x of [-w * 0.88, -w * 0.42, w * 0.42, w * 0.88]) {
    if (back && Math.abs(x) < w * 0.5) continue;
    f.add(
      `<rect x="${fmt(x - 8)}" y="${fmt(Y(-4))}" width="16" height="${fmt(wbH + 14)}" rx="3" fill="${P.band}" stroke="${P.edge}" stroke-width="1.8"/>`,
      `<rect x="${fmt(x - 8)}" y="${fmt(Y(-4))}" width="16" height="${fmt(wbH + 14)}" rx="3" fill="url(#gh)"/>`,
    );
  }
  if (back) {
    f.add(
      `<rect x="-8" y="${fmt(Y(-4))}" width="16" height="${fmt(wbH + 14)}" rx="3" fill="${P.band}" stroke="${P.edge}" stroke-width="1.8"/>`,
    );
    f.add(seam(P, d`M0 ${Y(wbH)}L0 ${Y(cy - 6)}`, 2));
    if (b.jeans) {
      f.add(
        `<g clip-path="url(#cbt)">${seam(P, d`M${-h - 10} ${Y(wbH + 70)}L0 ${Y(wbH + 110)}L${h + 10} ${Y(wbH + 70)}`, 2)}${stitch(d`M${-h - 10} ${Y(wbH + 80)}L0 ${Y(wbH + 120)}L${h + 10} ${Y(wbH + 80)}`, stitchC, 1.6, '6 4')}</g>`,
      );
      for (const sign of [-1, 1]) {
        const cx = sign * h * 0.5;
        const top = Y(wbH + 120);
        const pk = d`M${cx - 62} ${top}L${cx + 62} ${top - sign * 4}L${cx + 56} ${top + 130}L${cx} ${top + 152}L${cx - 56} ${top + 130}Z`;
        f.add(`<path d="${pk}" fill="#000" fill-opacity=".22" transform="translate(2 4)"/>`);
        vol(f, P, pk, { grad: 'gband', vgrad: null, sil: false, sw: 2 });
        f.add(
          `<path d="${pk}" fill="url(#twill)"/>`,
          stitch(
            d`M${cx - 54} ${top + 8}L${cx + 54} ${top + 4}L${cx + 48} ${top + 124}L${cx} ${top + 144}L${cx - 48} ${top + 124}Z`,
            stitchC,
            1.6,
            '6 4',
          ),
        );
        f.add(
          stitch(
            d`M${cx - 34} ${top + 50}Q${cx} ${top + 80} ${cx + 34} ${top + 50}M${cx - 34} ${top + 62}Q${cx} ${top + 92} ${cx + 34} ${top + 62}`,
            stitchC,
            1.6,
            '6 4',
          ),
        );
      }
      f.add(
        `<rect x="${fmt(w * 0.5)}" y="${fmt(Y(6))}" width="70" height="${fmt(wbH - 12)}" rx="3" fill="#8a5a36" stroke="#5a3a22" stroke-width="1.5"/>`,
      );
    } else {
      for (const sign of [-1, 1]) {
        const cx = sign * h * 0.5;
        f.add(
          seam(P, d`M${cx - 50} ${Y(wbH + 80)}L${cx + 50} ${Y(wbH + 80)}`, 3),
          line(d`M${cx - 50} ${Y(wbH + 86)}L${cx + 50} ${Y(wbH + 86)}`, P.band, 6, 0.7),
          button(cx, Y(wbH + 64), 6, 2),
        );
        f.add(seam(P, d`M${cx} ${Y(wbH)}L${cx + sign * 2} ${Y(wbH + 56)}`, 1.4));
      }
    }
    return;
  }
  // fly and closure
  f.add(seam(P, d`M0 ${Y(wbH)}L0 ${Y(cy - 10)}`, 2));
  f.add(
    stitch(
      d`M26 ${Y(wbH + 2)}L26 ${Y(cy - 70)}Q26 ${Y(cy - 34)} 2 ${Y(cy - 28)}`,
      stitchC,
      b.jeans ? 1.8 : 1.4,
      '6 4',
      b.jeans ? 0.9 : 0.6,
    ),
  );
  if (b.jeans) f.add(metalButton(0, Y(wbH / 2), 11, 'copper'));
  else f.add(button(0, Y(wbH / 2), 8, 2));
  for (const sign of [-1, 1]) {
    if (b.jeans) {
      const pk = d`M${sign * (w - 76)} ${Y(wbH)}Q${sign * (w - 64)} ${Y(wbH + 84)} ${sign * (h - 4)} ${Y(wbH + 96)}`;
      f.add(
        seam(P, pk, 2),
        stitch(
          d`M${sign * (w - 88)} ${Y(wbH)}Q${sign * (w - 76)} ${Y(wbH + 96)} ${sign * (h - 2)} ${Y(wbH + 108)}`,
          stitchC,
          1.6,
          '6 4',
        ),
      );
      f.add(`<circle cx="${fmt(sign * (h - 8))}" cy="${fmt(Y(wbH + 96))}" r="6" fill="url(#copper)"/>`);
      if (sign > 0)
        f.add(
          stitch(
            d`M${w - 62} ${Y(wbH + 6)}L${w - 60} ${Y(wbH + 56)}L${w - 16} ${Y(wbH + 60)}L${w - 14} ${Y(wbH + 10)}`,
            stitchC,
            1.6,
            '6 4',
          ),
        );
    } else {
      f.add(seam(P, d`M${sign * (w - 46)} ${Y(wbH)}L${sign * (h - 2)} ${Y(hy - 40)}`, 2));
      if (b.pleat) f.add(fold([sign * (w * 0.42), Y(wbH)], [sign * (w * 0.5), Y(wbH + 160)], 7, 0.4));
    }
  }
}

interface SkirtSpec {
  waistW: number;
  wbH: number;
  hipY: number;
  hipW: number;
  length: number;
  hemW: number;
  waves: number;
}

const SKIRT: SkirtSpec = { waistW: 140, wbH: 42, hipY: 200, hipW: 182, length: 820, hemW: 300, waves: 5 };

function drawSkirt(f: Fig, P: Pal, k: SkirtSpec, view: number, rng: Rng, y0 = 0, withWaistband = true): void {
  const { waistW: w, wbH, hipY: hy, hipW: h, length: L, hemW: hw, waves } = k;
  const Y = (v: number): number => y0 + v;
  const flat = view === 4;
  // hem waves (godets)
  let hem = '';
  const xs: number[] = [];
  for (let i = 0; i <= waves * 2; i++) xs.push(hw - (2 * hw * i) / (waves * 2));
  for (let i = 1; i < xs.length; i++) {
    const xa = xs[i - 1] ?? 0;
    const xb = xs[i] ?? 0;
    const down = i % 2 === 1 ? 18 : -4;
    hem += d`Q${(xa + xb) / 2} ${Y(L + down)} ${xb} ${Y(L + (i % 2 === 1 ? 6 : 0))}`;
  }
  const outline =
    d`M${-w} ${Y(0)}L${w} ${Y(0)}C${h} ${Y(hy * 0.35)} ${h} ${Y(hy * 0.7)} ${h + 4} ${Y(hy)}L${hw} ${Y(L)}` +
    hem +
    d`L${-h - 4} ${Y(hy)}C${-h} ${Y(hy * 0.7)} ${-h} ${Y(hy * 0.35)} ${-w} ${Y(0)}Z`;
  f.box(-hw - 4, Y(0), hw + 4, Y(L + 20));
  vol(f, P, outline, { grad: flat ? 'gflat' : 'gh', vgrad: flat ? null : 'gv' });
  f.defs.push(`<clipPath id="csk"><path d="${outline}"/></clipPath>`);
  const det: string[] = [];
  for (let i = 1; i < waves * 2; i += 2) {
    const x = xs[i] ?? 0;
    const xt = x * (h / hw) * 0.9 + rnd(rng, -8, 8);
    det.push(
      drape(P, [xt, Y(hy * rnd(rng, 0.7, 1.1))], [x, Y(L + 10)], 20 + Math.abs(x) * 0.03, 0.42, rnd(rng, -6, 6)),
    );
  }
  det.push(stitch(d`M${-hw + 10} ${Y(L - 18)}L${hw - 10} ${Y(L - 18)}`, P.stitch, 1.3, '5 4', 0.4));
  f.add(`<g clip-path="url(#csk)">${det.join('')}</g>`);
  if (withWaistband) {
    const wb = d`M${-w} ${Y(0)}L${w} ${Y(0)}L${w + 3} ${Y(wbH)}Q0 ${Y(wbH + 4)} ${-w - 3} ${Y(wbH)}Z`;
    vol(f, P, wb, { fill: P.band, grad: 'gh', vgrad: 'gband', sil: false, sw: 2.4 });
    if (view === 1)
      f.add(
        seam(P, d`M0 ${Y(wbH)}L0 ${Y(hy + 60)}`, 1.6),
        `<rect x="-4" y="${fmt(Y(wbH))}" width="8" height="14" rx="2" fill="url(#metal)"/>`,
      );
    else f.add(button(w * 0.55, Y(wbH / 2), 8, 2));
  }
}

// ---------------------------------------------------------------------------
// Accessories
// ---------------------------------------------------------------------------

function drawBag(f: Fig, P: Pal, view: number): void {
  f.ground = view !== 4;
  f.fillH = 0.62;
  const three = view === 2;
  const W0 = 250;
  const W1 = 290;
  const H = 400;
  const body = d`M${-W0 + 18} 0L${W0 - 18} 0Q${W0} 0 ${W0 + 2} 18L${W1} ${H - 30}Q${W1 + 2} ${H} ${W1 - 30} ${H}L${-W1 + 30} ${H}Q${-W1 - 2} ${H} ${-W1} ${H - 30}L${-W0 - 2} 18Q${-W0} 0 ${-W0 + 18} 0Z`;
  f.box(-W1 - (three ? 0 : 4), -250, W1 + (three ? 110 : 4), H);
  // two handles: the back one a little higher, seen behind the front one
  for (const [k, dy] of [
    [0.92, -16],
    [1, 0],
  ] as const) {
    const a = 130 * k;
    const hd =
      view === 4
        ? d`M${-a} ${4 + dy}C${-a - 60} ${-150 + dy} ${a + 60} ${-150 + dy} ${a} ${4 + dy}`
        : d`M${-a} ${4 + dy}C${-a + 10} ${-210 + dy} ${a - 10} ${-210 + dy} ${a} ${4 + dy}`;
    const c = dy < 0 ? shade(P.base, 0.2) : P.base;
    f.add(
      line(hd, P.edge, 30),
      line(hd, c, 24),
      line(hd, '#fff', 4, P.isDark ? 0.15 : 0.22, ' transform="translate(-3 -4)"'),
      stitch(hd, P.stitch, 1.2, '4 4', 0.7),
    );
    if (dy === 0)
      for (const e of [-a, a])
        f.add(
          `<rect x="${fmt(e - 14)}" y="-8" width="28" height="40" rx="5" fill="url(#gold)" stroke="#7a5c22" stroke-width="1.5"/>`,
        );
  }
  if (three) {
    const side = d`M${W0 - 4} 6L${W0 + 64} -22L${W1 + 58} ${H - 34}L${W1 - 6} ${H}Z`;
    vol(f, P, side, { fill: shade(P.base, 0.18), sil: true });
    f.add(fold([W0 + 36, 0], [W1 + 30, H - 20], 10, 0.5));
  }
  vol(f, P, body, {});
  f.add(
    stitch(d`M${-W0 + 14} 14L${W0 - 14} 14L${W1 - 14} ${H - 16}L${-W1 + 14} ${H - 16}Z`, P.stitch, 1.6, '6 4', 0.7),
  );
  if (view === 1) {
    f.add(
      seam(P, d`M${-W0 + 30} 120L${W0 - 30} 120`, 2),
      stitch(d`M${-W0 + 30} 130L${W0 - 30} 130`, P.stitch, 1.4, '6 4', 0.6),
    );
    return;
  }
  // flap with a turn lock
  const flap = d`M${-W0 - 2} 8L${W0 + 2} 8L${W0 + 20} 170Q${W0 + 22} 196 ${W0 - 4} 200Q0 236 ${-W0 + 4} 200Q${-W0 - 22} 196 ${-W0 - 20} 170Z`;
  f.add(`<path d="${flap}" fill="#000" fill-opacity=".25" transform="translate(0 8)"/>`);
  vol(f, P, flap, { grad: 'gh', vgrad: 'gband', sil: false });
  f.add(
    stitch(
      d`M${-W0 + 8} 20L${W0 - 8} 20L${W0 + 6} 168Q${W0 + 6} 186 ${W0 - 12} 188Q0 222 ${-W0 + 12} 188Q${-W0 - 6} 186 ${-W0 - 6} 168Z`,
      P.stitch,
      1.4,
      '6 4',
      0.7,
    ),
  );
  f.add(
    `<rect x="-38" y="196" width="76" height="50" rx="10" fill="#000" fill-opacity=".3" transform="translate(2 5)"/><rect x="-38" y="196" width="76" height="50" rx="10" fill="url(#gold)" stroke="#7a5c22" stroke-width="2"/><rect x="-10" y="206" width="20" height="30" rx="8" fill="url(#gold)" stroke="#7a5c22" stroke-width="2" transform="rotate(90 0 221)"/>`,
  );
}

function drawShoe(P: Pal, boot: boolean, fill: string): string {
  const sole = P.isLight || P.lum > 0.45 ? '#b98f62' : '#1d1916';
  const lining = P.isDark ? '#6b5443' : '#c4a27c';
  const up = boot
    ? d`M12 192C-2 150 4 100 20 60C32 20 28 -60 34 -150L196 -160C190 -80 196 -10 222 30C250 56 300 66 360 76C450 92 520 114 556 138C590 158 600 176 596 192Z`
    : d`M12 192C-2 150 4 84 24 44C70 66 140 92 200 98C220 70 250 48 290 44C380 44 470 76 540 120C580 144 600 168 596 192Z`;
  let s = '';
  if (!boot)
    s += `<path d="${d`M24 44C70 66 140 92 200 98L212 80C150 66 80 50 24 44Z`}" fill="${lining}"/><path d="${d`M24 44C70 66 140 92 200 98L212 80C150 66 80 50 24 44Z`}" fill="url(#gh)"/>`;
  else s += `<path d="${d`M34 -150L196 -160L192 -172L36 -162Z`}" fill="${lining}"/>`;
  s += `<path d="${up}" fill="${fill}"/><path d="${up}" fill="url(#gv)"/>`;
  s += `<path d="${d`M0 -300H620V200H0Z`}" fill="url(#gh)" clip-path="url(#shoeclip${boot ? 'b' : ''})"/>`;
  // toe and heel-counter highlights
  s +=
    fold([boot ? 400 : 360, boot ? 86 : 58], [570, 150], 16, 0.6, 0, true) +
    fold([16, 160], [26, 70], 10, 0.35, 0, true);
  if (!boot) {
    // moccasin apron and penny strap
    s +=
      seam(P, d`M300 52C390 52 478 84 548 130`, 1.6) +
      stitch(d`M300 64C390 64 470 94 536 136`, P.stitch, 1.4, '4 3', 0.8);
    const strap = d`M206 84C236 66 270 56 306 54L314 90C280 92 248 100 218 116Z`;
    s += `<path d="${strap}" fill="#000" fill-opacity=".25" transform="translate(2 5)"/><path d="${strap}" fill="${shade(fill, 0.06)}" stroke="${P.edge}" stroke-width="2"/><path d="${strap}" fill="url(#gband)"/>`;
    s += `<path d="${d`M246 80Q264 72 284 70L286 78Q266 80 248 88Z`}" fill="#000" fill-opacity=".6"/>`;
    s += seam(P, d`M64 184C74 140 76 104 72 70`, 1.4);
  } else {
    const g = d`M92 -154L164 -158C156 -70 146 -10 132 40C118 -10 102 -70 92 -154Z`;
    s += `<path d="${g}" fill="${shade(fill, 0.25)}"/><path d="${g}" fill="url(#rib)"/><path d="${g}" fill="url(#gh)"/>`;
    s += seam(P, d`M92 -154C102 -70 118 -10 132 40C146 -10 156 -70 164 -158`, 1.6);
    const tab = d`M30 -148L28 -196Q44 -210 62 -198L64 -150Z`;
    s +=
      `<path d="${tab}" fill="${shade(fill, 0.08)}" stroke="${P.edge}" stroke-width="2"/><path d="${tab}" fill="url(#gband)"/>` +
      stitch(d`M36 -154L35 -192M56 -154L56 -194`, P.stitch, 1.2, '3 3', 0.8);
    s += stitch(d`M250 62C300 80 420 100 540 146`, P.stitch, 1.3, '4 3', 0.6);
    s += stitch(d`M26 170C36 120 40 90 44 60`, P.stitch, 1.3, '4 3', 0.7);
  }
  s += `<path d="${up}" fill="none" stroke="${P.edge}" stroke-width="2.6" stroke-linejoin="round"/>`;
  // sole, welt stitching, stacked heel
  const heelH = boot ? 58 : 40;
  s += `<path d="${d`M6 190H598Q612 204 594 214H20Q4 212 6 190Z`}" fill="${sole}" stroke="#000" stroke-opacity=".35" stroke-width="1.5"/>`;
  s += `<path d="${d`M6 190H598Q612 204 594 214H20Q4 212 6 190Z`}" fill="url(#gv)"/>`;
  s += stitch(d`M28 201H586`, tint(sole, 0.4), 1.3, '4 3', 0.9);
  const heel = d`M10 212H140L136 ${212 + heelH}H18Z`;
  s += `<path d="${heel}" fill="${shade(sole, 0.12)}" stroke="#000" stroke-opacity=".35" stroke-width="1.5"/><path d="${heel}" fill="url(#gh)"/>`;
  s += line(d`M14 ${212 + heelH * 0.45}H138M16 ${212 + heelH * 0.75}H137`, '#000', 1.2, 0.3);
  return s;
}

/** Clip paths of the shoe uppers, referenced by drawShoe. */
function shoeClips(): string {
  const shoe = d`M12 192C-2 150 4 84 24 44C70 66 140 92 200 98C220 70 250 48 290 44C380 44 470 76 540 120C580 144 600 168 596 192Z`;
  const boot = d`M12 192C-2 150 4 100 20 60C32 20 28 -60 34 -150L196 -160C190 -80 196 -10 222 30C250 56 300 66 360 76C450 92 520 114 556 138C590 158 600 176 596 192Z`;
  return `<clipPath id="shoeclip"><path d="${shoe}"/></clipPath><clipPath id="shoeclipb"><path d="${boot}"/></clipPath>`;
}

/** A shoe seen from the front (toe towards the viewer). */
function drawShoeFront(P: Pal, boot: boolean, fill: string): string {
  const sole = P.isLight || P.lum > 0.45 ? '#b98f62' : '#1d1916';
  const foot = d`M-104 196C-116 150 -100 70 -60 52Q0 40 60 52C100 70 116 150 104 196Z`;
  const inside = P.isDark ? '#3a2c22' : '#8a6a4a';
  let s = '';
  if (boot) {
    const shaft = d`M-70 80L-76 -150Q0 -166 76 -150L70 80Z`;
    s += `<path d="${shaft}" fill="${fill}" stroke="${P.edge}" stroke-width="2.6"/><path d="${shaft}" fill="url(#gh)"/>`;
    s += `<ellipse cx="0" cy="-152" rx="74" ry="14" fill="${inside}"/>`;
  }
  s += `<path d="${foot}" fill="${fill}" stroke="${P.edge}" stroke-width="2.6"/><path d="${foot}" fill="url(#gh)"/><path d="${foot}" fill="url(#gv)"/>`;
  if (!boot) s += `<ellipse cx="0" cy="62" rx="62" ry="14" fill="${inside}"/>`;
  s += fold([0, 90], [0, 186], 26, 0.55, 0, true);
  if (!boot)
    s += `<path d="${d`M-86 100Q0 84 86 100L90 128Q0 112 -90 128Z`}" fill="${shade(fill, 0.06)}" stroke="${P.edge}" stroke-width="2"/>`;
  s += `<path d="${d`M-110 192H110Q116 210 100 216H-100Q-116 210 -110 192Z`}" fill="${sole}"/>`;
  return s;
}

function drawFootwear(f: Fig, P: Pal, view: number, boot: boolean): void {
  f.ground = view !== 4;
  f.fillW = 0.86;
  f.fillH = boot ? 0.56 : 0.4;
  f.defs.push(shoeClips());
  const far = shade(P.base, P.isDark ? 0 : 0.1);
  const top = boot ? -210 : 40;
  const bottom = boot ? 272 : 254;
  if (view === 2) {
    f.add(`<g transform="translate(540 -40) scale(0.9)">${drawShoeFront(P, boot, far)}</g>`);
    f.add(`<g transform="translate(0 30)">${drawShoe(P, boot, P.base)}</g>`);
    f.box(0, top - 40, 640, bottom + 30);
    return;
  }
  if (view === 4) {
    if (boot) {
      f.add(
        `<g transform="translate(0 -60) rotate(-6 300 0)">${drawShoe(P, boot, P.base)}</g>`,
        `<g transform="translate(640 420) scale(-1 1) rotate(-6 300 0)">${drawShoe(P, boot, P.base)}</g>`,
      );
      f.box(-30, top - 100, 660, 420 + bottom);
      return;
    }
    for (const sign of [-1, 1])
      f.add(
        `<g transform="translate(${sign * 140} ${sign * 30}) rotate(${sign * 6}) scale(${sign} 1)">${drawShoeTop(P, P.base)}</g>`,
      );
    f.box(-270, -340, 270, 340);
    return;
  }
  const g1 = drawShoe(P, boot, far);
  const g2 = drawShoe(P, boot, P.base);
  const t = view === 1 ? ' transform="translate(700 0) scale(-1 1)"' : '';
  f.add(`<g${t}><g transform="translate(96 -46) scale(0.97)">${g1}</g><g transform="translate(0 24)">${g2}</g></g>`);
  f.box(-10, top - 46, 700, bottom + 24);
}

/** A loafer seen from above (flat lay). */
function drawShoeTop(P: Pal, fill: string): string {
  const sole = P.isLight || P.lum > 0.45 ? '#b98f62' : '#1d1916';
  const o = d`M0 -300C84 -300 112 -210 112 -110C112 -10 104 110 94 200C84 270 52 300 0 300C-52 300 -84 270 -94 200C-102 110 -106 -10 -104 -110C-102 -210 -84 -300 0 -300Z`;
  let s = `<path d="${o}" fill="${sole}" transform="translate(0 6) scale(1.04)"/>`;
  s += `<path d="${o}" fill="${fill}" stroke="${P.edge}" stroke-width="2.6"/><path d="${o}" fill="url(#gh)"/>`;
  s += `<path d="${d`M0 10C50 10 72 60 72 140C72 220 50 262 0 262C-50 262 -72 220 -72 140C-72 60 -50 10 0 10Z`}" fill="${P.isDark ? '#5d4838' : '#c4a27c'}" stroke="${P.edge}" stroke-width="2"/>`;
  s += `<path d="${d`M0 10C50 10 72 60 72 140C72 160 70 170 66 180C50 80 -50 80 -66 180C-70 170 -72 160 -72 140C-72 60 -50 10 0 10Z`}" fill="#000" fill-opacity=".3"/>`;
  s +=
    seam(P, d`M-76 -40C-80 -200 -50 -270 0 -272C50 -270 80 -200 76 -40`, 1.6) +
    stitch(d`M-66 -40C-70 -190 -44 -258 0 -260C44 -258 70 -190 66 -40`, P.stitch, 1.4, '4 3', 0.8);
  s += `<path d="${d`M-92 -30Q0 -44 92 -30L94 10Q0 -4 -94 10Z`}" fill="${shade(fill, 0.06)}" stroke="${P.edge}" stroke-width="2"/><rect x="-24" y="-24" width="48" height="12" rx="6" fill="#000" fill-opacity=".55"/>`;
  s += fold([-30, -260], [-40, -60], 18, 0.5, 0, true);
  return s;
}

function drawHat(f: Fig, P: Pal, view: number): void {
  f.ground = view !== 4;
  f.fillW = 0.8;
  f.fillH = 0.5;
  const ribbon = P.isDark ? shade(P.base, 0.5) : shade(P.base, 0.62);
  if (view === 4) {
    // from above
    f.add(
      `<circle cx="0" cy="0" r="330" fill="${P.base}"/><circle cx="0" cy="0" r="330" fill="url(#gflat)"/><circle cx="0" cy="0" r="330" fill="none" stroke="${P.edge}" stroke-width="3"/>`,
    );
    f.add(stitch(d`M-312 0A312 312 0 1 0 312 0A312 312 0 1 0 -312 0`, P.stitch, 1.4, '5 4', 0.5));
    f.add(
      `<ellipse cx="0" cy="0" rx="190" ry="216" fill="#000" fill-opacity=".2" transform="translate(8 12)"/><ellipse cx="0" cy="0" rx="190" ry="216" fill="${ribbon}"/><ellipse cx="0" cy="0" rx="166" ry="192" fill="${P.base}" stroke="${P.edge}" stroke-width="2"/><ellipse cx="0" cy="0" rx="166" ry="192" fill="url(#gh)"/>`,
    );
    f.add(fold([0, -150], [0, 150], 22, 0.5), fold([-60, -120], [-40, 60], 14, 0.3, 0, true));
    f.box(-334, -334, 334, 334);
    return;
  }
  const tilt = view === 2 ? 1.6 : 1;
  const brimRy = 70 * tilt;
  f.add(`<ellipse cx="0" cy="12" rx="372" ry="${fmt(brimRy + 6)}" fill="${shade(P.base, 0.25)}"/>`);
  f.add(
    `<ellipse cx="0" cy="0" rx="370" ry="${fmt(brimRy)}" fill="${P.base}" stroke="${P.edge}" stroke-width="2.6"/><ellipse cx="0" cy="0" rx="370" ry="${fmt(brimRy)}" fill="url(#gh)"/>`,
  );
  f.add(`<ellipse cx="0" cy="-6" rx="224" ry="${fmt(48 * tilt)}" fill="#000" fill-opacity=".25"/>`);
  const by = 10;
  const crown = d`M-212 ${by}C-218 -110 -202 -210 -162 -252Q-80 -280 0 ${view === 1 ? -262 : -238}Q80 -280 162 -252C202 -210 218 -110 212 ${by}Q0 ${by + 46 * tilt} -212 ${by}Z`;
  vol(f, P, crown, { sil: true });
  if (view !== 1)
    f.add(
      fold([-70, -250], [-50, -130], 16, 0.45),
      fold([70, -250], [50, -130], 16, 0.45),
      fold([0, -236], [0, -150], 10, 0.35, 0, true),
    );
  const band = d`M-213 -50Q0 ${-50 + 46 * tilt} 213 -50L212 ${by}Q0 ${by + 46 * tilt} -212 ${by}Z`;
  f.add(`<path d="${band}" fill="${ribbon}"/><path d="${band}" fill="url(#gh)"/>`);
  if (view !== 1)
    f.add(
      `<path d="${d`M-180 -46L-130 -40L-136 2L-186 -6Z`}" fill="${shade(ribbon, 0.2)}"/><path d="${d`M-180 -46L-130 -40L-136 2L-186 -6Z`}" fill="url(#gh)"/>`,
    );
  f.add(`<path d="${crown}" fill="none" stroke="${P.edge}" stroke-width="2.6"/>`);
  f.sil.push(d`M-370 0A370 ${brimRy} 0 1 0 370 0A370 ${brimRy} 0 1 0 -370 0Z`);
  f.box(-372, -280, 372, brimRy + 18);
}

function drawScarf(f: Fig, P: Pal, view: number, rng: Rng): void {
  f.fillH = 0.74;
  const stripe = shade(P.base, P.isDark ? 0 : 0.28);
  const stripeC = P.isDark ? tint(P.base, 0.14) : stripe;
  const fringe = (x0: number, x1: number, y0: number, y1: number): string => {
    let s = '';
    for (let x = x0 + 5; x < x1 - 3; x += 9) {
      const y = y0 + ((y1 - y0) * (x - x0)) / (x1 - x0);
      s += d`M${x} ${y - 4}l${rnd(rng, -5, 5)} ${rnd(rng, 52, 72)}`;
    }
    return line(s, P.edge, 5.5) + line(s, P.base, 3.6);
  };
  const knit = (p: string, fill: string): void => {
    vol(f, P, p, { fill });
    f.add(`<path d="${p}" fill="url(#rib)" fill-opacity=".55"/>`);
  };
  if (view === 4) {
    const p = d`M-230 -420L230 -420L236 380L-236 380Z`;
    vol(f, P, p, { grad: 'gflat', vgrad: null });
    f.add(`<path d="${p}" fill="url(#rib)" fill-opacity=".5"/>`);
    f.add(fold([-230, -20], [236, -10], 10, 0.4), fold([-230, 0], [236, 10], 6, 0.3, 0, true));
    for (const y of [250, 290]) f.add(line(d`M-236 ${y}L236 ${y}`, stripeC, 14, 0.6));
    f.add(fringe(-236, 236, 380, 380));
    f.box(-240, -420, 240, 450);
    return;
  }
  if (view === 2) {
    // folded over the bar of a wooden hanger
    f.add(`<path d="${d`M0 -150L0 -96`}" stroke="#6e675e" stroke-width="9" fill="none"/>`);
    f.add(line(d`M0 -96L0 -150C0 -200 56 -200 56 -160C56 -140 40 -134 30 -142`, '#6e675e', 9));
    f.add(
      `<path d="${d`M-300 -20Q0 -110 300 -20L294 6Q0 -82 -294 6Z`}" fill="url(#wood)" stroke="#5a3b22" stroke-width="2"/>`,
    );
    const back = d`M-40 -52Q60 -70 170 -40C180 300 170 640 186 900L-10 910C0 640 -20 300 -40 -52Z`;
    const front = d`M-200 -40Q-100 -76 40 -52C30 300 50 660 34 1000L-170 994C-180 660 -210 300 -200 -40Z`;
    knit(back, shade(P.base, 0.1));
    f.add(fringe(-10, 186, 910, 900));
    knit(front, P.base);
    for (const y of [860, 900]) f.add(line(d`M-178 ${y}L36 ${y}`, stripeC, 14, 0.5));
    f.add(fringe(-170, 34, 994, 1000));
    f.add(drape(P, [-90, 40], [-70, 960], 20, 0.35, 6));
    f.box(-300, -200, 300, 1070);
    return;
  }
  // worn: a loop around an invisible neck, the two ends hanging in front
  const mirror = view === 1 ? -1 : 1;
  const X = (x: number): number => x * mirror;
  const backBand = d`M-190 10A190 58 0 0 1 190 10L100 22A100 22 0 0 0 -100 22Z`;
  knit(backBand, shade(P.base, P.isDark ? 0 : 0.3));
  f.add(`<path d="${backBand}" fill="#000" fill-opacity=".25"/>`);
  const endB = d`M${X(-10)} 40C${X(60)} 36 ${X(120)} 40 ${X(150)} 50C${X(176)} 320 ${X(160)} 600 ${X(176)} 880L${X(-4)} 890C${X(4)} 600 ${X(-14)} 320 ${X(-10)} 40Z`;
  const endA = d`M${X(-170)} 50C${X(-120)} 40 ${X(-40)} 40 ${X(20)} 46C${X(10)} 340 ${X(34)} 700 ${X(22)} 1000L${X(-176)} 994C${X(-186)} 700 ${X(-200)} 340 ${X(-170)} 50Z`;
  knit(endB, shade(P.base, P.isDark ? 0 : 0.08));
  for (const y of [744, 784]) f.add(line(d`M${X(-6)} ${y + 6}L${X(174)} ${y}`, stripeC, 14, 0.5));
  f.add(fringe(Math.min(X(-4), X(176)), Math.max(X(-4), X(176)), mirror > 0 ? 890 : 880, mirror > 0 ? 880 : 890));
  f.add(`<path d="${endA}" fill="#000" fill-opacity=".18" transform="translate(${X(10)} 6)"/>`);
  knit(endA, P.base);
  for (const y of [854, 894]) f.add(line(d`M${X(-178)} ${y}L${X(24)} ${y + 4}`, stripeC, 14, 0.5));
  f.add(fringe(Math.min(X(-176), X(22)), Math.max(X(-176), X(22)), mirror > 0 ? 994 : 1000, mirror > 0 ? 1000 : 994));
  f.add(drape(P, [X(-90), 120], [X(-80), 960], 22, 0.35, 6), drape(P, [X(90), 140], [X(100), 840], 16, 0.3, -4));
  const frontBand = d`M-190 10C-150 40 -80 42 -100 22A100 22 0 0 0 100 22C80 42 150 40 190 10C210 60 200 96 176 116C100 150 -100 150 -176 116C-200 96 -210 60 -190 10Z`;
  f.add(
    `<path d="${d`M-176 116C-100 150 100 150 176 116`}" fill="none" stroke="#000" stroke-opacity=".22" stroke-width="18" transform="translate(0 8)"/>`,
  );
  knit(frontBand, tint(P.base, 0.03));
  f.add(
    fold([-160, 70], [-40, 120], 14, 0.45),
    fold([40, 124], [160, 76], 14, 0.4),
    fold([-120, 50], [110, 52], 10, 0.35, 0, true),
  );
  f.sil.push(endA, endB);
  f.box(-210, -80, 210, 1070);
}

function drawBeltAcc(f: Fig, P: Pal, view: number): void {
  f.ground = view !== 4 && view !== 2;
  f.fillW = 0.84;
  f.fillH = 0.5;
  const h = 62;
  const buckle = (x: number, y: number, w: number, hh: number): string =>
    `<rect x="${fmt(x - w / 2 + 3)}" y="${fmt(y - hh / 2 + 5)}" width="${fmt(w)}" height="${fmt(hh)}" rx="10" fill="none" stroke="#000" stroke-opacity=".3" stroke-width="14"/>` +
    `<rect x="${fmt(x - w / 2)}" y="${fmt(y - hh / 2)}" width="${fmt(w)}" height="${fmt(hh)}" rx="10" fill="none" stroke="url(#gold)" stroke-width="13"/>` +
    line(d`M${x - w / 2 + 4} ${y}L${x + w / 2 + 20} ${y}`, '#8e6e31', 7);
  if (view === 2) {
    // hanging straight down from the buckle
    f.fillH = 0.8;
    const strap = d`M-34 0L34 0L30 900Q0 950 -30 900Z`;
    vol(f, P, strap, {});
    f.add(stitch(d`M-24 10L-22 900M24 10L22 900`, P.stitch, 1.4, '5 4', 0.7));
    for (let i = 0; i < 5; i++)
      f.add(`<ellipse cx="0" cy="${fmt(700 + i * 40)}" rx="6" ry="7" fill="#000" fill-opacity=".6"/>`);
    f.add(buckle(0, -20, 110, 86));
    f.box(-70, -70, 70, 940);
    return;
  }
  if (view === 4) {
    // coiled, seen from above: a spiral of half-circles, the buckle at the outer end
    const half = 38;
    const r0 = 60;
    let spiral = d`M${r0} 0`;
    let endX = 0;
    for (let k = 0; k < 7; k++) {
      const R = r0 + k * half;
      const c = k % 2 === 0 ? 0 : half;
      endX = k % 2 === 0 ? c - R : c + R;
      spiral += d`A${R} ${R} 0 0 0 ${endX} 0`;
    }
    spiral += d`L${endX} 40`;
    f.add(
      line(spiral, P.edge, h + 4),
      line(spiral, P.base, h - 2),
      line(spiral, '#fff', 10, P.isDark ? 0.1 : 0.15, ' transform="translate(-4 -6)"'),
      stitch(spiral, P.stitch, 1.4, '5 4', 0.7),
    );
    f.add(`<g transform="rotate(90 ${fmt(endX)} 70)">${buckle(endX, 70, 70, 100)}</g>`);
    f.box(endX - 70, -r0 - 6 * half - 40, -endX + half + 40, r0 + 6 * half + 40);
    return;
  }
  const rx = 340;
  const ry = 120;
  const backWall = d`M${-rx} 0A${rx} ${ry} 0 0 1 ${rx} 0L${rx} ${h}A${rx} ${ry} 0 0 0 ${-rx} ${h}Z`;
  const frontWall = d`M${-rx} 0A${rx} ${ry} 0 0 0 ${rx} 0L${rx} ${h}A${rx} ${ry} 0 0 1 ${-rx} ${h}Z`;
  f.add(
    `<path d="${backWall}" fill="${shade(P.base, 0.35)}" stroke="${P.edge}" stroke-width="2"/><path d="${backWall}" fill="url(#gh)"/>`,
  );
  if (view === 1) f.add(buckle(0, -ry + h / 2, 70, 86));
  vol(f, P, frontWall, { vgrad: 'gband' });
  f.add(
    stitch(d`M${-rx + 6} 10A${rx} ${ry} 0 0 0 ${rx - 6} 10`, P.stitch, 1.5, '6 4', 0.8),
    stitch(d`M${-rx + 6} ${h - 10}A${rx} ${ry} 0 0 0 ${rx - 6} ${h - 10}`, P.stitch, 1.5, '6 4', 0.8),
  );
  if (view === 0) {
    const tail = d`M20 ${ry - 4}Q150 ${ry - 24} 250 ${ry - 62}L270 ${ry - 6}Q160 ${ry + 40} 20 ${ry + h - 4}Z`;
    vol(f, P, tail, { sil: false, vgrad: 'gband' });
    for (let i = 0; i < 4; i++)
      f.add(
        `<ellipse cx="${fmt(90 + i * 44)}" cy="${fmt(ry + 18 - i * 13)}" rx="6" ry="7" fill="#000" fill-opacity=".6"/>`,
      );
    f.add(buckle(0, ry + h / 2, 78, 96));
  } else {
    for (let i = 0; i < 5; i++)
      f.add(`<ellipse cx="${fmt(-80 + i * 40)}" cy="${fmt(ry + h / 2)}" rx="6" ry="7" fill="#000" fill-opacity=".6"/>`);
  }
  f.sil.push(d`M${-rx} 0A${rx} ${ry} 0 1 1 ${rx} 0L${rx} ${h}A${rx} ${ry} 0 1 1 ${-rx} ${h}Z`);
  f.box(-rx - 4, -ry - 10, rx + 4, ry + h + 20);
}

const MONOGRAM_V =
  'M-122 -120H-30V-112Q-44 -110 -40 -96L16 64L76 -96Q82 -110 64 -112V-120H120V-112Q106 -110 98 -96L6 124H-4L-96 -98Q-104 -110 -122 -112Z';

function monogram(x: number, y: number, scale: number, base: string, strength = 1): string {
  const t = (dx: number, dy: number): string => `transform="translate(${fmt(x + dx)} ${fmt(y + dy)}) scale(${scale})"`;
  return (
    `<path d="${MONOGRAM_V}" fill="#fff" fill-opacity="${0.5 * strength}" ${t(-2.5, -2.5)}/>` +
    `<path d="${MONOGRAM_V}" fill="#000" fill-opacity="${0.4 * strength}" ${t(2.5, 3)}/>` +
    `<path d="${MONOGRAM_V}" fill="${base}" ${t(0, 0)}/>` +
    `<path d="${MONOGRAM_V}" fill="url(#gband)" ${t(0, 0)}/>`
  );
}

// Digits and the rouble sign as strokes in a 60×100 box: the card never depends on the fonts
// of the machine that draws it.
const NOMINAL_GLYPHS: Readonly<Record<string, string>> = {
  '0': 'M30 0C8 0 2 25 2 50C2 75 8 100 30 100C52 100 58 75 58 50C58 25 52 0 30 0Z',
  '1': 'M14 20L34 0V100M16 100H52',
  '2': 'M4 22C6 6 18 0 31 0C46 0 57 10 57 26C57 44 40 58 4 100H58',
  '3': 'M6 12C14 3 22 0 31 0C46 0 55 10 55 24C55 38 44 47 28 47C46 47 58 58 58 73C58 90 46 100 30 100C18 100 8 95 2 86',
  '4': 'M44 100V0L2 70H60',
  '5': 'M54 0H12L8 44C15 40 22 38 30 38C47 38 58 51 58 68C58 87 46 100 29 100C17 100 8 95 2 86',
  '6': 'M52 8C45 2 38 0 31 0C12 0 2 22 2 56C2 84 13 100 31 100C48 100 59 88 59 69C59 51 48 40 32 40C18 40 6 48 2 60',
  '7': 'M2 0H58L22 100',
  '8': 'M30 47C14 47 6 38 6 24C6 10 16 0 30 0C44 0 54 10 54 24C54 38 46 47 30 47C12 47 2 58 2 73C2 90 14 100 30 100C46 100 58 90 58 73C58 58 48 47 30 47Z',
  '9': 'M8 92C15 98 22 100 29 100C48 100 58 78 58 44C58 16 47 0 29 0C12 0 1 12 1 31C1 49 12 60 28 60C42 60 54 52 58 40',
  '₽': 'M14 100V0H38C54 0 62 10 62 26C62 42 54 52 38 52H2M2 74H44',
};

/** '10 000 ₽' drawn in gold strokes, centred on (x, y), `height` tall. */
function nominalText(nominal: number, x: number, y: number, height: number): string {
  const text = `${String(nominal).replace(/\B(?=(\d{3})+(?!\d))/g, ' ')} ₽`;
  const advance = (ch: string) => (ch === ' ' ? 34 : ch === '₽' ? 76 : 72);
  const width = [...text].reduce((w, ch) => w + advance(ch), 0) - 12;
  const k = height / 100;
  let pos = x - (width * k) / 2;
  let s = '';
  for (const ch of text) {
    const glyph = NOMINAL_GLYPHS[ch];
    if (glyph) {
      const at = `translate(${fmt(pos)} ${fmt(y - height / 2)}) scale(${fmt(k)})`;
      s += `<path d="${glyph}" fill="none" stroke="#000" stroke-opacity=".35" stroke-width="${fmt(9 / k / 1.6)}" stroke-linecap="round" stroke-linejoin="round" transform="translate(2 3) ${at}"/>`;
      s += `<path d="${glyph}" fill="none" stroke="url(#gold)" stroke-width="${fmt(9 / k / 1.6)}" stroke-linecap="round" stroke-linejoin="round" transform="${at}"/>`;
    }
    pos += advance(ch) * k;
  }
  return s;
}

function drawGiftCard(f: Fig, P: Pal, view: number, rng: Rng, nominal?: number): void {
  f.ground = view === 0 || view === 1;
  f.fillW = 0.84;
  f.fillH = 0.5;
  const W = 430;
  const H = 272;
  const ribbon = P.isLight || P.lum > 0.55 ? '#7a1f2b' : '#d8bf86';
  f.defs.push(
    linGrad('satin', 'x', [
      [0, shade(ribbon, 0.25), 1],
      [0.35, tint(ribbon, 0.35), 1],
      [0.6, ribbon, 1],
      [1, shade(ribbon, 0.3), 1],
    ]),
  );
  const rect = (x: number, y: number, w: number, h: number, r: number): string =>
    d`M${x - w + r} ${y - h}H${x + w - r}Q${x + w} ${y - h} ${x + w} ${y - h + r}V${y + h - r}Q${x + w} ${y + h} ${x + w - r} ${y + h}H${x - w + r}Q${x - w} ${y + h} ${x - w} ${y + h - r}V${y - h + r}Q${x - w} ${y - h} ${x - w + r} ${y - h}Z`;
  const bow = (x: number, y: number): string => {
    let s = '';
    for (const sign of [-1, 1]) {
      const tail = d`M${x} ${y}L${x + sign * 70} ${y + 150}L${x + sign * 52} ${y + 168}L${x + sign * 40} ${y + 146}L${x + sign * 6} ${y + 12}Z`;
      s += `<path d="${tail}" fill="url(#satin)" stroke="${shade(ribbon, 0.4)}" stroke-width="1.5"/>`;
    }
    for (const sign of [-1, 1]) {
      const loop = d`M${x} ${y}C${x + sign * 40} ${y - 70} ${x + sign * 120} ${y - 64} ${x + sign * 104} ${y - 6}C${x + sign * 96} ${y + 34} ${x + sign * 40} ${y + 30} ${x} ${y}Z`;
      s += `<path d="${loop}" fill="#000" fill-opacity=".2" transform="translate(3 6)"/><path d="${loop}" fill="url(#satin)" stroke="${shade(ribbon, 0.4)}" stroke-width="1.5"/>`;
      s += fold([x + sign * 18, y - 4], [x + sign * 84, y - 14], 10, 0.4);
    }
    s += `<rect x="${fmt(x - 18)}" y="${fmt(y - 20)}" width="36" height="40" rx="8" fill="url(#satin)" stroke="${shade(ribbon, 0.4)}" stroke-width="1.5"/>`;
    return s;
  };
  const card = (x: number, y: number, back: boolean, withRibbon: boolean): string => {
    const r = rect(x, y, W, H, 24);
    // a card has a thickness: a darker copy peeking out below and to the right
    let s = `<path d="${r}" fill="${shade(P.base, 0.35)}" transform="translate(3 5)"/>`;
    s += `<path d="${r}" fill="${P.base}" stroke="${P.edge}" stroke-width="2"/><path d="${r}" fill="url(#gflat)"/>`;
    s += `<path d="${d`M${x - W * 0.2} ${y - H}L${x + W * 0.25} ${y - H}L${x - W * 0.35} ${y + H}L${x - W * 0.8} ${y + H}Z`}" fill="#fff" fill-opacity="${P.isDark ? 0.05 : 0.08}"/>`;
    if (back) {
      s += `<rect x="${fmt(x - W)}" y="${fmt(y - H + 50)}" width="${fmt(W * 2)}" height="70" fill="#1b1a18"/>`;
      s += `<rect x="${fmt(x - W + 50)}" y="${fmt(y + 40)}" width="380" height="60" rx="4" fill="#f4f1ea"/>`;
      let bars = '';
      for (let i = 0; i < 60; i++) if (rng() > 0.45) bars += d`M${x + W - 380 + i * 5} ${y + 134}v70`;
      s += `<rect x="${fmt(x + W - 400)}" y="${fmt(y + 120)}" width="340" height="98" rx="4" fill="#f4f1ea"/><path d="${bars}" stroke="#1b1a18" stroke-width="3"/>`;
      s += monogram(x + W - 80, y - H + 170, 0.22, P.base, 0.8);
    } else {
      s += `<path d="${rect(x, y, W - 30, H - 30, 10)}" fill="none" stroke="url(#gold)" stroke-width="3"/>`;
      const cx = x - (withRibbon ? 90 : 0);
      if (nominal) {
        s += monogram(cx, y - 50, 0.85, P.base);
        s += nominalText(nominal, cx, y + 150, 72);
      } else {
        s += monogram(cx, y - 10, 1.05, P.base);
        s += line(d`M${cx - 60} ${y + 180}H${cx + 60}`, '#c9a45a', 3);
      }
      if (withRibbon) {
        const rx = x + W * 0.58;
        s += `<path d="${d`M${rx - 24} ${y - H - 6}H${rx + 24}V${y + H + 6}H${rx - 24}Z`}" fill="#000" fill-opacity=".2" transform="translate(3 0)"/>`;
        s += `<path d="${d`M${rx - 24} ${y - H - 6}H${rx + 24}V${y + H + 6}H${rx - 24}Z`}" fill="url(#satin)"/>`;
        s += bow(rx, y - H * 0.25);
      }
    }
    return s;
  };
  if (view === 4 || view === 2) {
    const env = mix(P.isLight ? '#d9cfc0' : '#f3efe8', P.base, 0.1);
    const e = d`M-440 -200L440 -200L440 360L-440 360Z`;
    f.add(
      `<path d="${e}" fill="${env}" stroke="${shade(env, 0.2)}" stroke-width="2"/><path d="${e}" fill="url(#gflat)"/>`,
    );
    f.add(line(d`M-440 -200L0 120L440 -200`, shade(env, 0.15), 3));
    f.add(`<g transform="translate(60 -200) rotate(${view === 2 ? -12 : -6})">${card(0, 0, false, view === 4)}</g>`);
    f.sil.push(e);
    f.box(-460, -520, 500, 400);
    return;
  }
  f.add(card(0, 0, view === 1, view === 0));
  f.sil.push(d`M${-W} ${-H}H${W}V${H}H${-W}Z`);
  f.box(-W, -H - 80, W, H + 8);
}

/**
 * The gift garment cover (a zipped cotton bag for a coat) hanging on its hanger: a long body
 * with sloping shoulders, a zip down the middle and a sewn-on label with the monogram.
 */
function drawGarmentCover(f: Fig, P: Pal, view: number): void {
  const W = 330;
  const H = 1100;
  const body = d`M-60 0C-170 8 -290 56 -322 150L${-W} ${H - 40}Q${-W} ${H} ${-W + 40} ${H}L${W - 40} ${H}Q${W} ${H} ${W} ${H - 40}L322 150C290 56 170 8 60 0Z`;
  drawHangerHook(f, 4);
  vol(f, P, body, { vgrad: 'gv' });
  // soft hanging folds of thin cotton
  f.add(
    fold([-200, 260], [-230, H - 40], 22, 0.35),
    fold([190, 300], [220, H - 30], 18, 0.3),
    fold([-40, 500], [-70, H - 20], 14, 0.22),
  );
  f.add(stitch(d`M${-W + 16} 170L${-W + 16} ${H - 18}L${W - 16} ${H - 18}L${W - 16} 170`, P.stitch, 1.6, '7 5', 0.6));
  if (view !== 1) {
    // the zip: a tape, the teeth, the pull at the top
    const zip = d`M0 40L0 ${H - 30}`;
    f.add(
      line(zip, shade(P.base, 0.3), 16),
      line(zip, P.isDark ? '#d9d4cb' : '#5f5a53', 7, 0.9, ' stroke-dasharray="3 3"'),
    );
    f.add(`<rect x="-13" y="44" width="26" height="58" rx="8" fill="url(#gold)" stroke="#7a5c22" stroke-width="2"/>`);
    // the label: a paler cotton patch with the monogram
    const label = d`M-250 210H-70V350H-250Z`;
    f.add(`<path d="${label}" fill="#000" fill-opacity=".15" transform="translate(3 5)"/>`);
    vol(f, P, label, { fill: tint(P.base, 0.45), vgrad: null, sw: 1.6, sil: false });
    f.add(
      stitch(d`M-240 220H-80V340H-240Z`, P.stitch, 1.2, '5 4', 0.7),
      monogram(-160, 280, 0.22, shade(P.base, 0.35)),
    );
  } else f.add(seam(P, d`M${-W + 20} 620L${W - 20} 620`, 1.6));
  f.box(-W - 4, -140, W + 4, H + 4);
}

// ---------------------------------------------------------------------------
// Composition of one kind in one view
// ---------------------------------------------------------------------------

function drawKind(f: Fig, kind: GarmentKind, P: Pal, view: number, rng: Rng, nominal?: number): void {
  const ts = TOP_SPECS[kind];
  const bs = BOTTOM_SPECS[kind];
  if (kind === 'dress' && ts) {
    const skirt: SkirtSpec = {
      waistW: ts.waistW,
      wbH: 0,
      hipY: 150,
      hipW: ts.waistW + 34,
      length: 760,
      hemW: 330,
      waves: 5,
    };
    drawSkirt(f, P, skirt, view, rng, ts.waistY, false);
    drawTop(f, P, ts, view, rng, { skirtBelow: true });
    f.add(seam(P, d`M${-ts.waistW} ${ts.waistY}L${ts.waistW} ${ts.waistY}`, 1.6));
    drawBelt(f, P, { ...ts, length: 400 }, view === 1, rng);
    if (view === 1) f.add(seam(P, d`M0 20L0 ${ts.waistY + 200}`, 1.6));
    return;
  }
  if (kind === 'jumpsuit' && ts) {
    const b: BottomSpec = {
      waistW: ts.waistW + 4,
      wbH: 0,
      hipW: 200,
      hipY: 150,
      crotchY: 250,
      length: 900,
      outerHem: 236,
      innerHem: 32,
      jeans: false,
      crease: true,
      cuff: false,
      pleat: true,
    };
    drawBottom(f, P, b, view, rng, ts.waistY, false);
    drawTop(f, P, ts, view, rng, { skirtBelow: true });
    drawBelt(f, P, { ...ts, length: 400 }, view === 1, rng);
    return;
  }
  if (ts) {
    drawTop(f, P, ts, view, rng);
    return;
  }
  if (bs) {
    drawBottom(f, P, bs, view, rng);
    if (view === 2) drawClipHanger(f, bs.waistW);
    return;
  }
  switch (kind) {
    case 'skirt':
      drawSkirt(f, P, SKIRT, view, rng);
      if (view === 2) drawClipHanger(f, SKIRT.waistW);
      return;
    case 'bag':
      return drawBag(f, P, view);
    case 'shoes':
      return drawFootwear(f, P, view, false);
    case 'boots':
      return drawFootwear(f, P, view, true);
    case 'hat':
      return drawHat(f, P, view);
    case 'scarf':
      return drawScarf(f, P, view, rng);
    case 'belt':
      return drawBeltAcc(f, P, view);
    case 'gift-card':
      return drawGiftCard(f, P, view, rng, nominal);
    case 'garment-cover':
      return drawGarmentCover(f, P, view);
    default:
      drawTop(f, P, TOP, view, rng);
  }
}

function drawClipHanger(f: Fig, waistW: number): void {
  const w = waistW + 40;
  f.add(
    line(d`M${-w} -70L${w} -70`, '#6e675e', 10),
    line(d`M${-w} -70L${w} -70`, '#e0dbd2', 3, 0.9, ' transform="translate(0 -2)"'),
  );
  f.add(
    line(d`M0 -70L0 -130C0 -190 62 -190 62 -144C62 -122 44 -116 34 -124`, '#6e675e', 9),
    line(d`M0 -70L0 -130C0 -190 62 -190 62 -144`, '#e0dbd2', 3, 0.9, ' transform="translate(-1.5 -1.5)"'),
  );
  for (const sign of [-1, 1]) {
    const x = sign * (waistW - 36);
    f.add(line(d`M${x} -70L${x} -30`, '#6e675e', 5));
    f.add(
      `<rect x="${fmt(x - 18)}" y="-34" width="36" height="62" rx="5" fill="url(#metal)" stroke="#5a554d" stroke-width="2"/>`,
    );
  }
  f.box(-w, -195, w, 0);
}

// ---------------------------------------------------------------------------
// Backdrops and staging
// ---------------------------------------------------------------------------

const BACKDROPS: readonly (readonly [string, string])[] = [
  ['#ece7e0', '#d8d0c5'],
  ['#e9e6e1', '#d3cec7'],
  ['#efe9e1', '#dccfc0'],
  ['#e6e3de', '#cfc9c1'],
  ['#ebe5dd', '#d5ccbf'],
];

function studio(rng: Rng, defs: string[], P: Pal): string {
  let [top, bottom] = BACKDROPS[Math.floor(rng() * BACKDROPS.length)] ?? ['#ece7e0', '#d8d0c5'];
  // keep light garments readable: a slightly deeper backdrop behind them
  if (P.isLight) {
    top = shade(top, 0.05);
    bottom = shade(bottom, 0.07);
  }
  const cx = 600 + rnd(rng, -80, 80);
  defs.push(
    userGrad(
      'bg',
      [cx - 200, 0],
      [600, ART_HEIGHT],
      [
        [0, tint(top, 0.15), 1],
        [0.55, top, 1],
        [1, bottom, 1],
      ],
    ),
    linGrad('vx', 'x', [
      [0, '#000', 0.08],
      [1, '#000', 0],
    ]),
  );
  // side vignette only where it is visible (full-frame gradients are not free)
  return `<rect width="${ART_WIDTH}" height="${ART_HEIGHT}" fill="url(#bg)"/><rect width="420" height="${ART_HEIGHT}" fill="url(#vx)"/><rect width="420" height="${ART_HEIGHT}" fill="url(#vx)" transform="matrix(-1 0 0 1 ${ART_WIDTH} 0)"/>`;
}

function surface(rng: Rng, defs: string[]): string {
  const tone = ['#f4f1ec', '#f2eee8', '#f5f2ee', '#f0ede7'][Math.floor(rng() * 4)] ?? '#f4f1ec';
  defs.push(
    linGrad('bg', 'd', [
      [0, tint(tone, 0.3), 1],
      [1, shade(tone, 0.06), 1],
    ]),
    linGrad('vx', 'y', [
      [0, '#fff', 0.25],
      [0.5, '#fff', 0],
      [1, '#000', 0.04],
    ]),
  );
  return `<rect width="${ART_WIDTH}" height="${ART_HEIGHT}" fill="url(#bg)"/><rect width="${ART_WIDTH}" height="${ART_HEIGHT}" fill="url(#vx)"/>`;
}

function stage(f: Fig, view: number, rng: Rng, defs: string[], P: Pal): string {
  const flat = view === 4;
  const back = flat ? surface(rng, defs) : studio(rng, defs, P);
  const w = Math.max(1, f.x1 - f.x0);
  const h = Math.max(1, f.y1 - f.y0);
  const s = Math.min((ART_HEIGHT * (flat ? Math.max(f.fillH, 0.72) : f.fillH)) / h, (ART_WIDTH * f.fillW) / w);
  const dx = rnd(rng, -14, 14);
  const dy = rnd(rng, -10, 10);
  const rot = flat ? rnd(rng, -4, 4) : rnd(rng, -1.2, 1.2);
  const cx = (f.x0 + f.x1) / 2;
  const cy = (f.y0 + f.y1) / 2;
  const tx = 600 + dx;
  const ty = (flat ? 800 : f.ground ? 840 - (h * s) / 2 + Math.min(380, (h * s) / 2) : 780) + dy;
  const tf = (ox: number, oy: number): string =>
    `translate(${fmt(tx + ox)} ${fmt(ty + oy)}) rotate(${fmt(rot)}) scale(${Math.round(s * 10000) / 10000}) translate(${fmt(-cx)} ${fmt(-cy)})`;
  let out = back;
  const bottomY = ty + (h * s) / 2;
  const silhouettes = f.sil.map((p) => `<path d="${p}"/>`).join('');
  if (flat) {
    out += `<g transform="${tf(10, 16)}" fill="#000" fill-opacity=".05">${silhouettes}</g><g transform="${tf(5, 8)}" fill="#000" fill-opacity=".06">${silhouettes}</g>`;
  } else if (view === 2 && !f.ground) {
    out += `<g transform="${tf(26, 22)}" fill="#000" fill-opacity=".045">${silhouettes}</g><g transform="${tf(14, 12)}" fill="#000" fill-opacity=".045">${silhouettes}</g>`;
  } else {
    const sw = Math.min(w * s * 0.56, 520);
    const gap = f.ground ? -6 : 40;
    out += `<ellipse cx="${fmt(tx)}" cy="${fmt(bottomY + gap)}" rx="${fmt(sw)}" ry="${f.ground ? 30 : 26}" fill="url(#floor)"/>`;
    if (f.ground)
      out += `<ellipse cx="${fmt(tx)}" cy="${fmt(bottomY - 4)}" rx="${fmt(sw * 0.85)}" ry="10" fill="#000" fill-opacity=".18"/>`;
  }
  out += `<g transform="${tf(0, 0)}">${f.els.join('')}</g>`;
  defs.push(...f.defs);
  return out;
}

// ---------------------------------------------------------------------------
// Close-ups (view 3): fabric filling the frame, with a seam and a detail
// ---------------------------------------------------------------------------

type Material =
  | 'wool'
  | 'twill'
  | 'knit'
  | 'chunky'
  | 'denim'
  | 'fur'
  | 'leather'
  | 'nylon'
  | 'poplin'
  | 'jersey'
  | 'silk'
  | 'felt'
  | 'paper';

const MATERIAL: Record<GarmentKind, Material> = {
  'warm-coat': 'wool',
  coat: 'wool',
  trench: 'twill',
  puffer: 'nylon',
  blazer: 'wool',
  sweater: 'chunky',
  cardigan: 'knit',
  trousers: 'twill',
  shorts: 'twill',
  skirt: 'wool',
  dress: 'silk',
  jumpsuit: 'twill',
  'knit-top': 'knit',
  shirt: 'poplin',
  blouse: 'silk',
  tshirt: 'jersey',
  top: 'silk',
  jeans: 'denim',
  'denim-jacket': 'denim',
  'fur-coat': 'fur',
  bag: 'leather',
  scarf: 'chunky',
  hat: 'felt',
  belt: 'leather',
  boots: 'leather',
  shoes: 'leather',
  'gift-card': 'paper',
  'garment-cover': 'poplin',
};

/** Noise of short fibres, seamless in a tile (elements near the edges are repeated). */
function fibres(rng: Rng, size: number, count: number, lenMin: number, lenMax: number): string {
  let s = '';
  for (let i = 0; i < count; i++) {
    const x = rnd(rng, 0, size);
    const y = rnd(rng, 0, size);
    const a = rnd(rng, 0, Math.PI);
    const l = rnd(rng, lenMin, lenMax);
    const seg = d`l${Math.cos(a) * l} ${Math.sin(a) * l}`;
    for (const ox of [0, -size])
      for (const oy of [0, -size])
        if ((ox === 0 || x + Math.abs(Math.cos(a) * l) > size) && (oy === 0 || y + Math.abs(Math.sin(a) * l) > size))
          s += d`M${x + ox} ${y + oy}` + seg;
  }
  return s;
}

/** Texture tiles, integer-sized and never transformed, so librsvg can tile them fast. */
function materialPattern(m: Material, P: Pal, rng: Rng): string {
  const dk = P.isDark ? 0.42 : P.isLight ? 0.11 : 0.19;
  const lt = P.isDark ? 0.09 : P.isLight ? 0.24 : 0.12;
  const pat = (id: string, w: number, h: number, body: string): string =>
    `<pattern id="${id}" width="${w}" height="${h}" patternUnits="userSpaceOnUse">${body}</pattern>`;
  switch (m) {
    case 'wool':
      return (
        pat(
          'tex',
          16,
          16,
          `<path d="M-4 20L20 -4M-4 4L4 -4M12 20L20 12" stroke="#000" stroke-opacity="${dk}" stroke-width="4.5"/><path d="M4 20L20 4M-4 12L12 -4" stroke="#fff" stroke-opacity="${lt}" stroke-width="2.5"/>`,
        ) +
        pat(
          'tex2',
          120,
          120,
          line(fibres(rng, 120, 40, 8, 18), '#fff', 1.4, lt * 1.2) +
            line(fibres(rng, 120, 24, 8, 16), '#000', 1.4, dk * 0.6),
        )
      );
    case 'twill':
      return (
        pat(
          'tex',
          10,
          10,
          `<path d="M-5 10L0 0M0 10L5 0M5 10L10 0M10 10L15 0" stroke="#000" stroke-opacity="${dk * 0.9}" stroke-width="2.6"/><path d="M-2.5 10L2.5 0M2.5 10L7.5 0M7.5 10L12.5 0" stroke="#fff" stroke-opacity="${lt * 0.8}" stroke-width="1.2"/>`,
        ) + pat('tex2', 120, 120, line(fibres(rng, 120, 30, 4, 10), '#fff', 1, lt))
      );
    case 'denim': {
      let slub = '';
      for (let i = 0; i < 40; i++)
        slub += d`M${rnd(rng, -40, 200)} ${Math.round(rnd(rng, 1, 119))}h${rnd(rng, 20, 90)}`;
      return (
        pat(
          'tex',
          8,
          8,
          `<rect width="8" height="8" fill="#000" fill-opacity=".08"/><path d="M-2 10L10 -2M-2 2L2 -2M6 10L10 6" stroke="#fff" stroke-opacity=".36" stroke-width="2.4"/><path d="M2 10L10 2M-2 6L6 -2" stroke="#000" stroke-opacity=".22" stroke-width="1.4"/>`,
        ) + pat('tex2', 160, 120, line(slub, '#fff', 2, 0.1))
      );
    }
    case 'knit':
    case 'chunky': {
      // stockinette: columns of V-shaped loops
      const k = m === 'chunky' ? 1.6 : 1;
      const w = Math.round(40 * k);
      const h = Math.round(34 * k);
      // each loop overhangs the tile top, so it is drawn again one tile higher
      const loop = (x: number, cy: number, rot: number): string =>
        `<ellipse cx="${fmt(x)}" cy="${fmt(cy)}" rx="${fmt(8.5 * k)}" ry="${fmt(17 * k)}" transform="rotate(${rot} ${fmt(x)} ${fmt(cy)})" fill="#fff" fill-opacity="${lt}" stroke="#000" stroke-opacity="${dk * 1.3}" stroke-width="${fmt(3 * k)}"/>`;
      let loops = '';
      for (const cy of [h * 0.62, h * 0.62 - h]) loops += loop(w * 0.28, cy, -28) + loop(w * 0.72, cy, 28);
      return pat('tex', w, h, `<rect width="${w}" height="${h}" fill="#000" fill-opacity="${dk * 0.5}"/>${loops}`);
    }
    case 'fur': {
      // long soft guard hairs, seamless vertically and horizontally
      let dark = '';
      let light = '';
      for (let i = 0; i < 48; i++) {
        const x = rnd(rng, 0, 120);
        const y = rnd(rng, 0, 120);
        const l = rnd(rng, 70, 120);
        const b = rnd(rng, -22, 22);
        for (const ox of [0, -120, 120]) {
          for (const oy of [0, -120]) {
            const seg = d`M${x + ox} ${y + oy}q${b} ${l * 0.5} ${b * 0.2 + rnd(rng, -6, 6)} ${l}`;
            if (i % 3) dark += seg;
            else light += seg;
          }
        }
      }
      return pat(
        'tex',
        120,
        120,
        line(dark, '#000', 2.6, P.isDark ? 0.4 : 0.13) + line(light, '#fff', 2.2, P.isDark ? 0.14 : 0.22),
      );
    }
    case 'leather': {
      let cells = '';
      for (let i = 0; i < 60; i++) {
        const x = rnd(rng, 6, 74);
        const y = rnd(rng, 6, 74);
        const rx = rnd(rng, 2.5, 6);
        const ry = rnd(rng, 2, 5);
        cells += d`M${x - rx} ${y}a${rx} ${ry} 0 1 0 ${rx * 2} 0a${rx} ${ry} 0 1 0 ${-rx * 2} 0`;
      }
      return pat(
        'tex',
        80,
        80,
        `<path d="${cells}" fill="#fff" fill-opacity="${lt * 0.35}" stroke="#000" stroke-opacity="${dk * 0.45}" stroke-width="1.4"/>`,
      );
    }
    case 'nylon':
      return pat(
        'tex',
        24,
        24,
        `<path d="M0 0.5H24M0.5 0V24" stroke="#000" stroke-opacity="${dk * 0.45}" stroke-width="1"/>`,
      );
    case 'poplin':
      return pat(
        'tex',
        4,
        4,
        `<path d="M0 1H4" stroke="#000" stroke-opacity="${dk * 0.4}" stroke-width="1"/><path d="M1 0V4" stroke="#fff" stroke-opacity="${lt * 0.6}" stroke-width="1"/>`,
      );
    case 'jersey':
      return pat(
        'tex',
        10,
        12,
        `<path d="M1 1L5 11L9 1" fill="none" stroke="#000" stroke-opacity="${dk * 0.6}" stroke-width="1.6"/><path d="M2 0L5 8L8 0" fill="none" stroke="#fff" stroke-opacity="${lt * 0.5}" stroke-width="1"/>`,
      );
    case 'silk':
      return pat('tex', 4, 4, `<path d="M0 2H4" stroke="#fff" stroke-opacity="${lt * 0.25}" stroke-width="1"/>`);
    case 'felt':
    case 'paper':
      return pat(
        'tex',
        60,
        60,
        line(fibres(rng, 60, m === 'felt' ? 90 : 30, 1.5, 4), '#000', 1.3, m === 'felt' ? dk * 0.9 : 0.05) +
          line(fibres(rng, 60, m === 'felt' ? 40 : 10, 1.5, 4), '#fff', 1.2, lt),
      );
  }
}

/** A broad soft fold running across the frame. */
function softFold(x: number, y: number, angle: number, width: number, strength: number, bend = 0): string {
  const w = width / 2;
  const band = d`M${x - w} ${y - 1400}C${x - w + bend} ${y - 500} ${x - w - bend} ${y + 500} ${x - w} ${y + 1400}H${x + w}C${x + w - bend} ${y + 500} ${x + w + bend} ${y - 500} ${x + w} ${y - 1400}Z`;
  return `<path d="${band}" transform="rotate(${fmt(angle)} ${fmt(x)} ${fmt(y)})" fill="url(#cfold)" fill-opacity="${Math.round(strength * 100) / 100}"/>`;
}

/** Fabric filling a path: base colour, texture, light. */
function cloth(path: string, fill: string, m: Material): string {
  const two = m === 'wool' || m === 'twill' || m === 'denim';
  return `<path d="${path}" fill="${fill}"/><path d="${path}" fill="url(#tex)"/>${two ? `<path d="${path}" fill="url(#tex2)"/>` : ''}<path d="${path}" fill="url(#cl)"/>`;
}

function bigButton(x: number, y: number, r: number, P: Pal, thread = true): string {
  let s = `<path d="${d`M${x - r * 1.25} ${y}H${x + r * 0.4}`}" stroke="#000" stroke-opacity=".55" stroke-width="${fmt(r * 0.16)}" stroke-linecap="round"/>`;
  s += `<circle cx="${fmt(x + r * 0.16)}" cy="${fmt(y + r * 0.24)}" r="${fmt(r * 1.06)}" fill="#000" fill-opacity=".3"/>`;
  s += button(x, y, r);
  if (thread)
    s += line(
      d`M${x - r * 0.24} ${y - r * 0.24}L${x + r * 0.24} ${y + r * 0.24}M${x + r * 0.24} ${y - r * 0.24}L${x - r * 0.24} ${y + r * 0.24}`,
      P.isDark ? tint(P.base, 0.3) : shade(P.base, 0.2),
      r * 0.07,
      0.9,
    );
  return s;
}

function closeUp(kind: GarmentKind, P: Pal, rng: Rng, defs: string[]): string {
  const m = MATERIAL[kind];
  const W = ART_WIDTH;
  const H = ART_HEIGHT;
  defs.push(materialPattern(m, P, rng));
  const sheen = m === 'silk' || m === 'nylon' || m === 'leather';
  defs.push(
    linGrad('cl', 'd', [
      [0, '#fff', P.isDark ? 0.14 : 0.2],
      [0.5, '#fff', 0],
      [1, '#000', P.isDark ? 0.35 : 0.25],
    ]),
    linGrad('cfold', 'x', [
      [0, '#000', 0],
      [0.38, '#000', P.isDark ? 0.5 : 0.32],
      [0.6, '#fff', sheen ? (P.isDark ? 0.22 : 0.32) : P.isDark ? 0.1 : 0.16],
      [1, '#fff', 0],
    ]),
    linGrad('cshadow', 'x', [
      [0, '#000', 0],
      [1, '#000', 0.45],
    ]),
  );
  const full = d`M0 0H${W}V${H}H0Z`;
  const stitchC = m === 'denim' ? '#c8893b' : P.stitch;
  let s = cloth(full, P.base, m);
  const foldAngle = rnd(rng, -14, 14);
  /** Broad soft folds across the frame, optionally clipped to the fabric's outline. */
  const folds = (n: number, width: number, strength: number, clip?: string): void => {
    let g = '';
    for (let i = 0; i < n; i++)
      g += softFold(
        ((i + rnd(rng, 0.2, 0.8)) * W) / n,
        800,
        foldAngle + rnd(rng, -5, 5),
        width * rnd(rng, 0.8, 1.3),
        strength * rnd(rng, 0.6, 1) * (P.isLight ? 0.7 : 1),
        rnd(rng, -90, 90),
      );
    if (clip) {
      defs.push(`<clipPath id="cfold-clip"><path d="${clip}"/></clipPath>`);
      g = `<g clip-path="url(#cfold-clip)">${g}</g>`;
    }
    s += g;
  };
  /** An overlapping panel from the right, with its edge near x = ex. */
  const panel = (ex: number, fill = P.base, mat: Material = m): string => {
    const edge = d`M${ex} -20C${ex - 30} 500 ${ex + 40} 1100 ${ex - 20} ${H + 20}`;
    const body = edge + d`L${W + 20} ${H + 20}L${W + 20} -20Z`;
    let p = `<path d="${body}" fill="url(#cshadow)" transform="translate(-46 0)" fill-opacity=".8"/>`;
    p += `<path d="${body}" fill="#000" fill-opacity=".28" transform="translate(-12 4)"/>`;
    p += cloth(body, fill, mat);
    p += line(edge, P.isDark ? tint(P.base, 0.22) : tint(P.base, 0.35), 6, 0.8);
    return p;
  };
  const edgeX = 700 + rnd(rng, -40, 40);
  const edgeAt = (_y: number, off: number): string =>
    d`M${edgeX + off} -20C${edgeX - 30 + off} 500 ${edgeX + 40 + off} 1100 ${edgeX - 20 + off} ${H + 20}`;

  switch (kind) {
    case 'coat':
    case 'warm-coat':
    case 'blazer':
    case 'trench': {
      folds(3, 260, 0.7);
      if (kind === 'blazer') {
        // lapel crossing the top of the frame
        const lap = d`M-20 -20L${W + 20} -20L${W + 20} 260C900 300 500 420 -20 620Z`;
        s +=
          `<path d="${lap}" fill="#000" fill-opacity=".3" transform="translate(6 16)"/>` +
          cloth(lap, P.band, m) +
          stitch(d`M-20 580C500 380 900 262 ${W + 20} 222`, stitchC, 3, '4 12', 0.8);
      }
      s += panel(edgeX);
      s += shift(stitch(edgeAt(0, 0), stitchC, 4, '16 10'), 40, 0);
      const by = 560 + rnd(rng, -60, 60);
      if (kind === 'trench') {
        s += bigButton(edgeX + 170, by, 64, P) + bigButton(edgeX - 330, by, 64, P);
        s += stitch(d`M-20 1240Q500 1270 ${edgeX - 10} 1240`, stitchC, 4, '16 10', 0.8);
      } else
        s +=
          bigButton(edgeX + 190, by, kind === 'blazer' ? 62 : 80, P) +
          bigButton(edgeX + 190, by + 520, kind === 'blazer' ? 62 : 80, P);
      if (kind === 'warm-coat')
        s +=
          `<path d="${d`M-20 1180L${edgeX} 1150L${edgeX} 1420L-20 1450Z`}" fill="#000" fill-opacity=".25" transform="translate(0 10)"/>` +
          cloth(d`M-20 1180L${edgeX} 1150L${edgeX} 1420L-20 1450Z`, P.band, m) +
          stitch(d`M-20 1200L${edgeX} 1170M-20 1430L${edgeX} 1400`, stitchC, 3, '12 8');
      break;
    }
    case 'denim-jacket':
    case 'shirt': {
      folds(2, 300, 0.6);
      s += panel(edgeX);
      const denim = kind === 'denim-jacket';
      s +=
        shift(stitch(edgeAt(0, 0), stitchC, denim ? 4 : 3, denim ? '14 8' : '9 7'), 30, 0) +
        shift(stitch(edgeAt(0, 0), stitchC, denim ? 4 : 3, denim ? '14 8' : '9 7'), denim ? 50 : 180, 0);
      const bx = edgeX + (denim ? 110 : 100);
      if (denim) {
        const flap = d`M-20 420H${edgeX - 60}V600L${edgeX * 0.5} 700L-20 600Z`;
        s +=
          `<path d="${flap}" fill="#000" fill-opacity=".3" transform="translate(4 12)"/>` +
          cloth(flap, P.base, m) +
          stitch(d`M-20 446H${edgeX - 84}V586L${edgeX * 0.5} 676L-20 586`, stitchC, 4, '14 8') +
          stitch(d`M-20 466H${edgeX - 104}V574L${edgeX * 0.5} 656L-20 574`, stitchC, 4, '14 8');
        s +=
          metalButton(edgeX * 0.5, 620, 44, 'copper') +
          metalButton(bx, 560, 66, 'copper') +
          metalButton(bx, 1240, 66, 'copper');
      } else {
        s += bigButton(bx, 520, 42, P) + bigButton(bx, 1240, 42, P);
        const collar = d`M${edgeX - 260} -20L${W + 20} -20L${W + 20} 160L${edgeX + 120} 300Z`;
        s +=
          `<path d="${collar}" fill="#000" fill-opacity=".3" transform="translate(-6 14)"/>` +
          cloth(collar, P.band, m) +
          stitch(d`M${edgeX - 214} -20L${edgeX + 112} 270L${W + 20} 134`, stitchC, 3, '9 7');
      }
      break;
    }
    case 'cardigan': {
      folds(2, 300, 0.5);
      defs.push(
        userGrad(
          'crib',
          [0, 0],
          [40, 0],
          [
            [0, '#000', 0.45],
            [0.5, '#fff', 0.12],
            [1, '#000', 0.45],
          ],
          true,
        ),
      );
      const band = d`M${edgeX} -20H${edgeX + 260}V${H + 20}H${edgeX}Z`;
      s += `<path d="${band}" fill="#000" fill-opacity=".3" transform="translate(-12 0)"/><path d="${band}" fill="${P.band}"/><path d="${band}" fill="url(#crib)"/><path d="${band}" fill="url(#cl)"/>`;
      s += seam(P, d`M${edgeX + 260} -20V${H + 20}`, 4);
      s += bigButton(edgeX + 130, 480, 58, P) + bigButton(edgeX + 130, 1180, 58, P);
      break;
    }
    case 'sweater':
    case 'knit-top':
    case 'scarf': {
      folds(2, 320, 0.55);
      defs.push(
        userGrad(
          'crib',
          [0, 0],
          [kind === 'knit-top' ? 26 : 44, 0],
          [
            [0, '#000', 0.45],
            [0.5, '#fff', 0.12],
            [1, '#000', 0.45],
          ],
          true,
        ),
      );
      const y = 1100 + rnd(rng, -40, 40);
      if (kind === 'scarf') {
        // the end of the scarf with its fringe, over the backdrop
        const bg = studioTone(rng, P);
        const end = d`M-20 -20H${W + 20}V${y}Q600 ${y + 20} -20 ${y}Z`;
        s =
          `<rect width="${W}" height="${H}" fill="${bg}"/><rect width="${W}" height="${H}" fill="url(#cl)"/>` +
          cloth(end, P.base, m);
        folds(2, 260, 0.4, end);
        for (const yy of [y - 240, y - 160])
          s += `<path d="${d`M-20 ${yy}H${W + 20}V${yy + 46}H-20Z`}" fill="${shade(P.base, P.isDark ? 0 : 0.3)}" fill-opacity=".7"/>`;
        let fr = '';
        for (let x = 10; x < W; x += 22)
          fr += d`M${x} ${y - 6}q${rnd(rng, -14, 14)} 160 ${rnd(rng, -20, 20)} ${rnd(rng, 300, 380)}`;
        s +=
          line(fr, '#000', 16, 0.18, ' transform="translate(6 10)"') +
          line(fr, P.edge, 15) +
          line(fr, P.base, 11) +
          line(fr, '#fff', 3, 0.18, ' transform="translate(-3 0)"');
      } else {
        if (kind === 'sweater') {
          // a cable running down the front
          const cx = 420 + rnd(rng, -60, 60);
          let cable = '';
          for (let yy = -120; yy < y; yy += 160)
            cable += d`M${cx - 70} ${yy}C${cx - 70} ${yy + 70} ${cx + 70} ${yy + 90} ${cx + 70} ${yy + 160}M${cx + 70} ${yy}C${cx + 70} ${yy + 60} ${cx + 20} ${yy + 70} ${cx + 8} ${yy + 76}M${cx - 8} ${yy + 86}C${cx - 20} ${yy + 92} ${cx - 70} ${yy + 100} ${cx - 70} ${yy + 160}`;
          s += `<rect x="${fmt(cx - 130)}" y="-20" width="260" height="${fmt(y + 20)}" fill="#000" fill-opacity=".16"/>`;
          s +=
            line(cable, '#000', 72, 0.35, ' transform="translate(6 8)"') +
            line(cable, P.base, 64) +
            line(cable, '#000', 64, 0.12) +
            line(cable, '#fff', 22, P.isDark ? 0.12 : 0.2, ' transform="translate(-12 -6)"');
          s += `<rect x="${fmt(cx - 130)}" y="-20" width="20" height="${fmt(y + 20)}" fill="#000" fill-opacity=".25"/><rect x="${fmt(cx + 110)}" y="-20" width="20" height="${fmt(y + 20)}" fill="#000" fill-opacity=".25"/>`;
        }
        const band = d`M-20 ${y}Q600 ${y + 30} ${W + 20} ${y}V${H + 20}H-20Z`;
        s +=
          `<path d="${band}" fill="${P.band}"/><path d="${band}" fill="url(#crib)"/><path d="${band}" fill="url(#cl)"/>` +
          seam(P, d`M-20 ${y}Q600 ${y + 30} ${W + 20} ${y}`, 4);
      }
      break;
    }
    case 'trousers':
    case 'jeans':
    case 'shorts':
    case 'skirt':
    case 'jumpsuit': {
      folds(2, 300, 0.5);
      const jeans = kind === 'jeans';
      const wy = 380 + rnd(rng, -40, 40);
      const wb = d`M-20 ${wy}Q600 ${wy - 30} ${W + 20} ${wy}V${wy + 170}Q600 ${wy + 140} -20 ${wy + 170}Z`;
      if (kind === 'jumpsuit') {
        // tie belt at the waist
        s +=
          `<path d="${wb}" fill="#000" fill-opacity=".3" transform="translate(0 14)"/>` +
          cloth(wb, P.band, m) +
          stitch(
            d`M-20 ${wy + 22}Q600 ${wy - 8} ${W + 20} ${wy + 22}M-20 ${wy + 148}Q600 ${wy + 118} ${W + 20} ${wy + 148}`,
            stitchC,
            3,
            '10 8',
          );
        const knot = d`M640 ${wy - 40}Q760 ${wy - 60} 860 ${wy - 30}L880 ${wy + 200}Q760 ${wy + 230} 650 ${wy + 210}Z`;
        const tail = d`M700 ${wy + 180}C680 ${wy + 500} 640 ${wy + 800} 560 ${H + 40}L820 ${H + 40}C860 ${wy + 800} 840 ${wy + 500} 820 ${wy + 190}Z`;
        s +=
          `<path d="${tail}" fill="#000" fill-opacity=".3" transform="translate(14 10)"/>` +
          cloth(tail, P.band, m) +
          `<path d="${knot}" fill="#000" fill-opacity=".3" transform="translate(10 10)"/>` +
          cloth(knot, P.band, m);
        s += softFold(760, wy + 800, 8, 120, 0.6) + softFold(700, wy + 80, 80, 60, 0.5);
        break;
      }
      s += `<path d="${wb}" fill="#000" fill-opacity=".3" transform="translate(0 14)"/>` + cloth(wb, P.band, m);
      s +=
        stitch(d`M-20 ${wy + 24}Q600 ${wy - 6} ${W + 20} ${wy + 24}`, stitchC, jeans ? 4 : 3, jeans ? '14 8' : '10 8') +
        stitch(
          d`M-20 ${wy + 146}Q600 ${wy + 116} ${W + 20} ${wy + 146}`,
          stitchC,
          jeans ? 4 : 3,
          jeans ? '14 8' : '10 8',
        );
      // fly
      const fx = 820 + rnd(rng, -30, 30);
      s +=
        seam(P, d`M${fx} ${wy + 160}V${H + 20}`, 4) +
        stitch(
          d`M${fx - 110} ${wy + 170}V${H - 200}Q${fx - 110} ${H - 90} ${fx - 10} ${H - 60}`,
          stitchC,
          jeans ? 4 : 3,
          jeans ? '14 8' : '10 8',
        );
      // belt loop
      const lx = 300 + rnd(rng, -40, 40);
      const loop = d`M${lx} ${wy - 40}H${lx + 80}V${wy + 220}H${lx}Z`;
      s +=
        `<path d="${loop}" fill="#000" fill-opacity=".35" transform="translate(8 10)"/>` +
        cloth(loop, P.band, m) +
        stitch(d`M${lx + 14} ${wy - 30}V${wy + 210}M${lx + 66} ${wy - 30}V${wy + 210}`, stitchC, 3, '10 8');
      if (jeans) {
        s += metalButton(fx, wy + 80, 66, 'copper');
        s +=
          seam(P, d`M-20 ${wy + 330}Q300 ${wy + 300} 560 ${wy + 170}`, 4) +
          stitch(d`M-20 ${wy + 360}Q310 ${wy + 330} 590 ${wy + 170}`, stitchC, 4, '14 8');
        s += `<circle cx="560" cy="${fmt(wy + 196)}" r="24" fill="#000" fill-opacity=".35" transform="translate(3 5)"/><circle cx="560" cy="${fmt(wy + 196)}" r="24" fill="url(#copper)" stroke="#5a3a1a" stroke-width="2"/>`;
      } else {
        s += bigButton(fx, wy + 80, kind === 'skirt' ? 34 : 44, P);
        s += seam(P, d`M120 ${wy + 170}L-20 ${wy + 700}`, 4);
      }
      break;
    }
    case 'dress':
    case 'blouse':
    case 'top':
    case 'tshirt': {
      folds(3, 300, 0.75);
      if (kind === 'dress') {
        // waist seam with gathers below
        const y = 620 + rnd(rng, -60, 60);
        s += seam(P, d`M-20 ${y}Q600 ${y + 30} ${W + 20} ${y}`, 5);
        for (let x = 40; x < W; x += 90 + rnd(rng, 0, 50))
          s +=
            fold([x, y - 10], [x + rnd(rng, -40, 40), y + rnd(rng, 400, 800)], 26, 0.3, rnd(rng, -8, 8)) +
            fold([x + 34, y - 10], [x + 34 + rnd(rng, -30, 30), y + rnd(rng, 300, 700)], 16, 0.3, 0, true);
        const belt = d`M-20 ${y - 90}Q600 ${y - 60} ${W + 20} ${y - 90}V${y - 10}Q600 ${y + 20} -20 ${y - 10}Z`;
        s += `<path d="${belt}" fill="#000" fill-opacity=".3" transform="translate(0 12)"/>` + cloth(belt, P.band, m);
      } else if (kind === 'blouse') {
        // gathered cuff with pearl buttons
        const y = 1020 + rnd(rng, -40, 40);
        for (let x = 30; x < W; x += 80 + rnd(rng, 0, 40))
          s += softFold(x, y, ((x - W / 2) / W) * -10 + rnd(rng, -2, 2), rnd(rng, 70, 110), 0.8, rnd(rng, -20, 20));
        const cuff = d`M-20 ${y}Q600 ${y + 24} ${W + 20} ${y}V${H + 20}H-20Z`;
        s +=
          `<path d="${cuff}" fill="#000" fill-opacity=".3" transform="translate(0 -10)"/>` +
          cloth(cuff, P.band, m) +
          stitch(d`M-20 ${y + 30}Q600 ${y + 54} ${W + 20} ${y + 30}`, stitchC, 3, '8 7');
        s += bigButton(760, y + 250, 34, P, false) + bigButton(940, y + 250, 34, P, false);
      } else if (kind === 'top') {
        // square neckline edge with the backdrop above
        const y = 520 + rnd(rng, -40, 40);
        const bg = studioTone(rng, P);
        s = `<rect width="${W}" height="${H}" fill="${bg}"/><rect width="${W}" height="${H}" fill="url(#cl)"/>`;
        const body = d`M-20 ${y}H${W + 20}V${H + 20}H-20Z`;
        s += `<path d="${d`M-20 ${y - 160}H${W + 20}V${y}H-20Z`}" fill="${P.deep}"/>` + cloth(body, P.base, m);
        folds(3, 240, 0.7, body);
        s += stitch(d`M-20 ${y + 40}H${W + 20}`, stitchC, 3, '8 7') + line(d`M-20 ${y}H${W + 20}`, P.edge, 4);
        const strap = d`M760 -20H1010V${y + 10}H760Z`;
        s +=
          cloth(strap, P.base, m) +
          line(d`M760 -20V${y}M1010 -20V${y}`, P.edge, 4) +
          stitch(d`M790 -20V${y + 40}M980 -20V${y + 40}`, stitchC, 3, '8 7');
      } else {
        // rib neckline of a t-shirt
        const y = 420 + rnd(rng, -40, 40);
        defs.push(
          userGrad(
            'crib',
            [0, 0],
            [22, 0],
            [
              [0, '#000', 0.4],
              [0.5, '#fff', 0.1],
              [1, '#000', 0.4],
            ],
            true,
          ),
        );
        s += `<path d="${d`M-20 -20H${W + 20}V${y - 120}Q600 ${y + 120} -20 ${y - 120}Z`}" fill="${P.deep}"/>`;
        const rib = d`M-20 ${y - 120}Q600 ${y + 120} ${W + 20} ${y - 120}V${y}Q600 ${y + 240} -20 ${y}Z`;
        s += `<path d="${rib}" fill="${P.band}"/><path d="${rib}" fill="url(#crib)"/><path d="${rib}" fill="url(#cl)"/>`;
        s += stitch(
          d`M-20 ${y + 26}Q600 ${y + 266} ${W + 20} ${y + 26}M-20 ${y + 50}Q600 ${y + 290} ${W + 20} ${y + 50}`,
          stitchC,
          3,
          '8 6',
        );
      }
      break;
    }
    case 'puffer': {
      defs.push(userGrad('cq', [0, 0], [0, 300], quiltStops(P), true));
      s += `<rect width="${W}" height="${H}" fill="url(#cq)"/>`;
      let l = '';
      for (let y = 0; y <= H; y += 300) l += d`M0 ${y}H${W}`;
      s += line(l, '#000', 6, 0.45) + shift(stitch(l, P.stitch, 2.5, '10 7', 0.7), 0, -4);
      const zx = edgeX + 120;
      s +=
        line(d`M${zx} -20V${H + 20}`, shade(P.base, 0.35), 56) +
        line(d`M${zx} -20V${H + 20}`, '#000', 30, 0.55, ' stroke-dasharray="9 7"') +
        line(d`M${zx} -20V${H + 20}`, '#fff', 24, 0.3, ' stroke-dasharray="9 7"');
      s += `<rect x="${fmt(zx - 32)}" y="520" width="64" height="170" rx="16" fill="#000" fill-opacity=".3" transform="translate(8 10)"/><rect x="${fmt(zx - 32)}" y="520" width="64" height="170" rx="16" fill="url(#metal)" stroke="#555" stroke-width="2"/><rect x="${fmt(zx - 13)}" y="630" width="26" height="40" rx="9" fill="#555"/>`;
      break;
    }
    case 'fur-coat': {
      // mink-like pelt stripes with soft locks of hair
      defs.push(
        userGrad(
          'pelt',
          [0, 0],
          [170, 0],
          [
            [0, '#000', P.isDark ? 0.4 : 0.22],
            [0.45, '#fff', P.isDark ? 0.1 : 0.16],
            [0.6, '#fff', P.isDark ? 0.06 : 0.1],
            [1, '#000', P.isDark ? 0.4 : 0.22],
          ],
          true,
        ),
      );
      let locks = '';
      for (let i = 0; i < 34; i++) {
        const x = rnd(rng, -40, W + 40);
        const y = rnd(rng, -200, H);
        locks += fold(
          [x, y],
          [x + rnd(rng, -24, 24), y + rnd(rng, 260, 460)],
          rnd(rng, 22, 40),
          rnd(rng, 0.25, 0.45),
          rnd(rng, -20, 20),
          i % 3 === 0,
        );
      }
      s = `<rect width="${W}" height="${H}" fill="${P.base}"/><rect width="${W}" height="${H}" fill="url(#pelt)"/>${locks}<rect width="${W}" height="${H}" fill="url(#tex)"/><rect width="${W}" height="${H}" fill="url(#cl)"/>`;
      folds(2, 420, 0.5);
      break;
    }
    case 'bag':
    case 'belt':
    case 'boots':
    case 'shoes': {
      folds(2, 300, 0.5);
      if (kind === 'belt') {
        const y = 560;
        const strap = d`M-20 ${y}H${W + 20}V${y + 420}H-20Z`;
        const bg = studioTone(rng, P);
        s =
          `<rect width="${W}" height="${H}" fill="${bg}"/><rect width="${W}" height="${H}" fill="url(#cl)"/><path d="${strap}" fill="#000" fill-opacity=".25" transform="translate(0 24)"/>` +
          cloth(strap, P.base, m);
        s += stitch(d`M-20 ${y + 40}H${W + 20}M-20 ${y + 380}H${W + 20}`, stitchC, 4, '14 10');
        for (let i = 0; i < 3; i++)
          s += `<ellipse cx="${fmt(180 + i * 150)}" cy="${fmt(y + 210)}" rx="26" ry="30" fill="#000" fill-opacity=".75"/><ellipse cx="${fmt(180 + i * 150)}" cy="${fmt(y + 210)}" rx="26" ry="30" fill="none" stroke="#fff" stroke-opacity=".2" stroke-width="4" transform="translate(3 4)"/>`;
        s += `<rect x="760" y="${fmt(y - 120)}" width="300" height="660" rx="50" fill="none" stroke="#000" stroke-opacity=".35" stroke-width="70" transform="translate(10 16)"/><rect x="760" y="${fmt(y - 120)}" width="300" height="660" rx="50" fill="none" stroke="url(#gold)" stroke-width="66"/>`;
        s +=
          line(d`M620 ${y + 210}H1080`, '#000', 44, 0.3, ' transform="translate(6 10)"') +
          line(d`M620 ${y + 210}H1080`, '#8e6e31', 40) +
          line(d`M620 ${y + 204}H1076`, '#f6e3a8', 10, 0.7);
        break;
      }
      s += panel(edgeX);
      s +=
        shift(stitch(edgeAt(0, 0), stitchC, 4, '14 10'), 38, 0) +
        stitch(d`M-20 1280Q400 1300 ${edgeX - 10} 1270`, stitchC, 4, '14 10');
      const by = 600 + rnd(rng, -60, 60);
      if (kind === 'bag')
        s += `<rect x="${fmt(edgeX + 70)}" y="${fmt(by - 110)}" width="300" height="220" rx="40" fill="#000" fill-opacity=".35" transform="translate(10 16)"/><rect x="${fmt(edgeX + 70)}" y="${fmt(by - 110)}" width="300" height="220" rx="40" fill="url(#gold)" stroke="#7a5c22" stroke-width="4"/><rect x="${fmt(edgeX + 190)}" y="${fmt(by - 80)}" width="60" height="160" rx="28" fill="url(#gold)" stroke="#7a5c22" stroke-width="4" transform="rotate(90 ${fmt(edgeX + 220)} ${fmt(by)})"/>`;
      else if (kind === 'boots') {
        defs.push(
          userGrad(
            'crib',
            [0, 0],
            [26, 0],
            [
              [0, '#000', 0.5],
              [0.5, '#fff', 0.1],
              [1, '#000', 0.5],
            ],
            true,
          ),
        );
        const g = d`M${edgeX + 80} -20H${edgeX + 420}L${edgeX + 250} 1100Z`;
        s +=
          `<path d="${g}" fill="${shade(P.base, 0.25)}"/><path d="${g}" fill="url(#crib)"/>` +
          seam(P, d`M${edgeX + 80} -20L${edgeX + 250} 1100L${edgeX + 420} -20`, 5);
      } else {
        s +=
          `<path d="${d`M${edgeX + 60} ${by - 80}H${edgeX + 420}V${by + 80}H${edgeX + 60}Z`}" fill="#000" fill-opacity=".3" transform="translate(6 14)"/>` +
          cloth(d`M${edgeX + 60} ${by - 80}H${edgeX + 420}V${by + 80}H${edgeX + 60}Z`, shade(P.base, 0.05), m);
        s += `<rect x="${fmt(edgeX + 170)}" y="${fmt(by - 22)}" width="140" height="44" rx="22" fill="#000" fill-opacity=".7"/>`;
      }
      break;
    }
    case 'hat': {
      folds(2, 400, 0.5);
      defs.push(
        userGrad(
          'gros',
          [0, 0],
          [0, 7],
          [
            [0, '#000', 0.35],
            [0.5, '#fff', 0.08],
            [1, '#000', 0.35],
          ],
          true,
        ),
      );
      const rib = P.isDark ? shade(P.base, 0.5) : shade(P.base, 0.62);
      const band = d`M-10 900Q600 860 1210 900L1210 1220Q600 1180 -10 1220Z`;
      s += `<path d="${band}" fill="#000" fill-opacity=".25" transform="translate(0 10)"/><path d="${band}" fill="${rib}"/><path d="${band}" fill="url(#gros)"/>`;
      const bow = d`M300 880L520 870L500 1240L280 1230Z`;
      s += `<path d="${bow}" fill="${shade(rib, 0.15)}"/><path d="${bow}" fill="url(#gros)"/><path d="${bow}" fill="url(#gh)"/>`;
      break;
    }
    case 'gift-card': {
      s += `<rect x="100" y="100" width="1000" height="1400" rx="40" fill="none" stroke="url(#gold)" stroke-width="6"/>`;
      s += monogram(600, 760, 3.2, P.base, 1.4);
      break;
    }
  }
  return s;
}

/** A flat backdrop tone, for close-ups that show the garment's edge against it. */
function studioTone(rng: Rng, P: Pal): string {
  const t = BACKDROPS[Math.floor(rng() * BACKDROPS.length)]?.[0] ?? '#ece7e0';
  return P.isLight ? shade(t, 0.08) : t;
}

// ---------------------------------------------------------------------------
// Public SVG builder
// ---------------------------------------------------------------------------

function seedOf(art: GarmentArt, kind: string, view: number, color: string): number {
  const seed = Number.isFinite(art.seed) ? Math.trunc(art.seed) : 0;
  const lo = seed % 4294967296;
  const hi = Math.floor(seed / 4294967296);
  return (hashStr(`${kind}|${view}|${color}`) ^ Math.imul(lo >>> 0, 2654435761) ^ Math.imul(hi | 0, 40503)) >>> 0;
}

export function garmentSvg(art: GarmentArt): string {
  const kind: GarmentKind = typeof art.kind === 'string' && KIND_SET.has(art.kind) ? art.kind : 'coat';
  const color = typeof art.color === 'string' && HEX.test(art.color) ? art.color.toLowerCase() : FALLBACK_COLOR;
  const view = Number.isInteger(art.view) && art.view >= 0 && art.view <= 4 ? art.view : 0;
  const rng = makeRng(seedOf(art, kind, view, color));
  const P = palette(color);
  const defs: string[] = [commonDefs(P)];
  // denim twill: fine diagonal lines (white on dark denim, dark on pale denim)
  const twillC = P.isLight ? '#000' : '#fff';
  const twillA = P.isLight ? 0.06 : P.isDark ? 0.07 : 0.12;
  defs.push(
    userGrad(
      'twill',
      [0, 0],
      [4, 4],
      [
        [0, twillC, twillA],
        [0.5, twillC, 0],
        [1, twillC, twillA],
      ],
      true,
    ),
  );
  let scene: string;
  if (view === 3) scene = closeUp(kind, P, rng, defs);
  else {
    const f = new Fig();
    drawKind(f, kind, P, view, rng, kind === 'gift-card' && art.nominal ? art.nominal : undefined);
    scene = stage(f, view, rng, defs, P);
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${ART_WIDTH}" height="${ART_HEIGHT}" viewBox="0 0 ${ART_WIDTH} ${ART_HEIGHT}"><defs>${defs.join('')}</defs>${scene}</svg>`;
}
