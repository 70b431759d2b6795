import sharp from 'sharp';

export const GARMENT_KINDS = ['warm-coat', 'coat', 'trench', 'puffer', 'blazer', 'sweater', 'cardigan', 'trousers', 'shorts', 'skirt', 'dress', 'jumpsuit', 'knit-top', 'shirt', 'blouse', 'tshirt', 'top', 'jeans', 'denim-jacket', 'fur-coat', 'bag', 'scarf', 'hat', 'belt', 'boots', 'shoes', 'gift-card'] as const;
export type GarmentKind = (typeof GARMENT_KINDS)[number];

export interface GarmentArt {
  kind: GarmentKind;
  /** '#rrggbb' */
  color: string;
  /** 0 front, 1 back, 2 hanger / three-quarter, 3 close-up detail, 4 flat lay */
  view: number;
  /** integer: small deterministic variations */
  seed: number;
}

export const ART_WIDTH = 1200;
export const ART_HEIGHT = 1600;

const HEX = /^#[0-9a-fA-F]{6}$/;
const KIND_SET: ReadonlySet<string> = new Set(GARMENT_KINDS);

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
    Number.isSafeInteger(v.seed)
  );
}

export function garmentSvg(art: GarmentArt): string {
  const color = HEX.test(art.color) ? art.color.toLowerCase() : '#8e8e8c';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${ART_WIDTH}" height="${ART_HEIGHT}" viewBox="0 0 ${ART_WIDTH} ${ART_HEIGHT}"><defs><linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#ebe6df"/><stop offset="1" stop-color="#d8d1c7"/></linearGradient></defs><rect width="${ART_WIDTH}" height="${ART_HEIGHT}" fill="url(#bg)"/><rect x="330" y="240" width="540" height="1120" rx="40" fill="${color}"/></svg>`;
}

export async function renderGarmentJpeg(art: GarmentArt): Promise<Buffer> {
  return sharp(Buffer.from(garmentSvg(art))).jpeg({ quality: 82, mozjpeg: true }).toBuffer();
}
