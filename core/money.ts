// Money lives as integer kopecks; these are the only conversions to and from text.

const NBSP = '\u00a0';

/** 3_200_000 -> '32 000 ₽'; 1_234_550 -> '12 345,50 ₽' (0 to 2 decimals, SPEC §9). */
export function formatRub(kopecks: number): string {
  assertKopecks(kopecks);
  const sign = kopecks < 0 ? '-' : '';
  const abs = Math.abs(kopecks);
  const roubles = Math.floor(abs / 100);
  const rest = abs % 100;
  const whole = String(roubles).replace(/\B(?=(\d{3})+(?!\d))/g, NBSP);
  const frac = rest === 0 ? '' : `,${String(rest).padStart(2, '0')}`;
  return `${sign}${whole}${frac}${NBSP}₽`;
}

/** Kopecks as the contract's rouble number (exact: at most two decimals). */
export function kopecksToRoubles(kopecks: number): number {
  assertKopecks(kopecks);
  return kopecks / 100;
}

/** '12 345,5' / '12345.50' / 12345.5 -> 1_234_550; null for anything that is not an amount. */
export function parseRoublesToKopecks(input: string | number): number | null {
  const text = typeof input === 'number' ? String(input) : input.replace(/[\s\u00a0]/g, '').replace(',', '.');
  const m = /^(-?)(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text);
  if (!m) return null;
  const kopecks = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  return m[1] ? -kopecks : kopecks;
}

function assertKopecks(value: number): void {
  if (!Number.isSafeInteger(value)) throw new TypeError(`Money must be whole kopecks, got ${value}`);
}
