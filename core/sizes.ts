// Size identities shared by the seed, the API's size facet and the storefront.

export type SizeType = 'clothes' | 'shoes' | 'none';

const INTL: Record<string, string> = {
  '40': 'XXS',
  '42': 'XS',
  '44': 'S',
  '46': 'M',
  '48': 'L',
  '50': 'XL',
  '52': 'XXL',
};
const ONE_SIZE_ID = 'edinyj';

/** The size's id in filter URLs: '44' for clothes, 'obuv-37' for shoes (so shoe 40 is not dress 40). */
export function sizeFilterId(sizeType: SizeType, size: string): string {
  if (sizeType === 'shoes') return `obuv-${size}`;
  if (sizeType === 'clothes' && /^\d{2}$/.test(size)) return size;
  return ONE_SIZE_ID;
}

/** How a size reads to a shopper: '44 (S)', '37', 'Единый'. */
export function sizeLabel(sizeType: SizeType, size: string, intl?: string | null): string {
  if (sizeType === 'clothes') {
    const international = intl ?? INTL[size];
    return international ? `${size} (${international})` : size;
  }
  return size;
}

/** The label of a size filter id, for facets: '44 (S)', '37', 'Единый'. */
export function sizeLabelFromId(id: string): string {
  if (id.startsWith('obuv-')) return id.slice('obuv-'.length);
  if (id === ONE_SIZE_ID) return 'Единый';
  return sizeLabel('clothes', id);
}

/** Facet order: clothing sizes, then shoe sizes, then one size. */
export function compareSizeIds(a: string, b: string): number {
  const rank = (id: string) => (id.startsWith('obuv-') ? 1 : id === ONE_SIZE_ID ? 2 : 0);
  const num = (id: string) => Number(id.replace('obuv-', '')) || 0;
  return rank(a) - rank(b) || num(a) - num(b);
}

const CLOTHES_OF_INTL = new Map(Object.entries(INTL).map(([size, intl]) => [intl.toLowerCase(), size]));

/**
 * The size filter ids a search word could name: '46' a dress 46 or a shoe 46, 'm' (any case)
 * the clothing size 46. Which of them the catalogue holds is for the caller to check.
 */
export function sizeIdsOfWord(word: string): string[] {
  if (/^\d{2}$/.test(word)) return [word, `obuv-${word}`];
  const clothes = CLOTHES_OF_INTL.get(word.toLowerCase());
  return clothes ? [clothes] : [];
}
