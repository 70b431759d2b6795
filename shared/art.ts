// The garment kinds media/garment-art.ts can draw; content and the seed name them.
export const GARMENT_KINDS = [
  'warm-coat',
  'coat',
  'trench',
  'puffer',
  'blazer',
  'sweater',
  'cardigan',
  'trousers',
  'shorts',
  'skirt',
  'dress',
  'jumpsuit',
  'knit-top',
  'shirt',
  'blouse',
  'tshirt',
  'top',
  'jeans',
  'denim-jacket',
  'fur-coat',
  'bag',
  'scarf',
  'hat',
  'belt',
  'boots',
  'shoes',
  'gift-card',
  'garment-cover',
] as const;
export type GarmentKind = (typeof GARMENT_KINDS)[number];

// Generated garment illustrations served by /media/art/{kind}/{hex6}/{view}.jpg (drawn once by
// server/media.server.ts, then cached on disk). The content API writes these URLs into blog
// HTML; the home page uses them for its hero and category tiles. One format, defined here.

export const ART_IMAGE_WIDTH = 1200;
export const ART_IMAGE_HEIGHT = 1600;

/** '/media/art/warm-coat/6b4f3a/0.jpg' for ('warm-coat', '#6B4F3A', 0). */
export function artImageUrl(kind: GarmentKind, color: string, view = 0): string {
  return `/media/art/${kind}/${color.replace(/^#/, '').toLowerCase()}/${view}.jpg`;
}

/** One illustration per catalogue section code of the seed (SPEC §2 categories). */
export const SECTION_ART: Readonly<Record<string, { kind: GarmentKind; color: string }>> = {
  uteplyennye_palto: { kind: 'warm-coat', color: '#6b4f3a' },
  demisezonnye_palto: { kind: 'coat', color: '#b59a78' },
  kurtki_plashchi: { kind: 'trench', color: '#a08866' },
  zhakety: { kind: 'blazer', color: '#3f4449' },
  svitery_i_dzhempery: { kind: 'sweater', color: '#e8dfd0' },
  bryuki_i_shorty: { kind: 'trousers', color: '#55504a' },
  yubki: { kind: 'skirt', color: '#8c6a5a' },
  platya_i_kombinezony: { kind: 'dress', color: '#4a4d52' },
  trikotazh: { kind: 'knit-top', color: '#c9b8a0' },
  rubashki_bluzki: { kind: 'shirt', color: '#f1ede6' },
  futbolki_topy: { kind: 'tshirt', color: '#d9d4cc' },
  denim: { kind: 'jeans', color: '#3b5778' },
  shuby: { kind: 'fur-coat', color: '#7d6b5d' },
  aksessuar: { kind: 'bag', color: '#5a3e2b' },
  muzhchinam: { kind: 'coat', color: '#2f3237' },
  'podarochnye-karty': { kind: 'gift-card', color: '#151515' },
  'new-collection': { kind: 'warm-coat', color: '#b59a78' },
  promo: { kind: 'scarf', color: '#a1281e' },
};
