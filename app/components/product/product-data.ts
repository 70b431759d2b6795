import type { PhotoValue, ProductItem, ProductProperties, PropertyValue } from '~/shared/contract';

// Reading SPEC §3 PROPERTIES: any of them may be missing; VALUE and DESCRIPTION are a string
// or, for multiple values (CML2_ATTRIBUTES), lists where DESCRIPTION holds the names.

export function productPhotos(item: ProductItem): PhotoValue[] {
  return item.PROPERTIES.MORE_PHOTO?.VALUE ?? [];
}

function property(props: ProductProperties, code: string): PropertyValue | null {
  if (code === 'MORE_PHOTO') return null;
  const p = (props as Record<string, PropertyValue | undefined>)[code];
  return p ?? null;
}

/** A single-valued property as text ('' and missing give null). */
export function propertyText(props: ProductProperties, code: string): string | null {
  const p = property(props, code);
  if (!p) return null;
  const text = (Array.isArray(p.VALUE) ? p.VALUE.join(', ') : p.VALUE).trim();
  return text || null;
}

export interface NamedValue {
  name: string;
  value: string;
}

/** Properties by code as name/value rows, in the order given, missing ones left out. */
export function propertyRows(props: ProductProperties, codes: readonly string[]): NamedValue[] {
  const rows: NamedValue[] = [];
  for (const code of codes) {
    const p = property(props, code);
    const value = propertyText(props, code);
    if (p && value) rows.push({ name: p.NAME, value });
  }
  return rows;
}

/** CML2_ATTRIBUTES: DESCRIPTION[i] names VALUE[i]. */
export function attributeRows(props: ProductProperties): NamedValue[] {
  const p = property(props, 'CML2_ATTRIBUTES');
  if (!p) return [];
  const values = Array.isArray(p.VALUE) ? p.VALUE : [p.VALUE];
  const names = Array.isArray(p.DESCRIPTION) ? p.DESCRIPTION : [p.DESCRIPTION];
  return values.map((value, i) => ({ name: names[i] ?? '', value })).filter((r) => r.name.trim() && r.value.trim());
}

export const COMPOSITION_CODES = ['SOSTAV', 'SOSTAV_PODKLADKI', 'SOSTAV_UTEPLITELYA'] as const;
export const MODEL_CODES = ['RAZMER_NA_FOTOMODELI', 'ROST', 'GRUD', 'TALIYA', 'BEDRA', 'OKRUZHNOST_GOLOVY'] as const;
