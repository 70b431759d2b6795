// SPEC §5 number-mask input: whole numbers shown with a space between thousands, clamped to a
// min and max; spaces are stripped before parsing; the input carries a maxlength. Pure functions,
// so the price-range input of the catalogue filter and anything else can share them.

export interface NumberRange {
  min: number;
  max: number;
}

const SPACES = /[\s\u00a0\u202f]/g;

/** 1234567 -> '1 234 567' (plain spaces: what a shopper can type back). */
export function formatThousands(value: number): string {
  if (!Number.isFinite(value)) return '';
  const sign = value < 0 ? '-' : '';
  return sign + String(Math.trunc(Math.abs(value))).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
}

/**
 * The number in a masked text: spaces (also no-break ones) are stripped first; anything else
 * that is not a digit makes it unreadable. '' and unreadable text give null.
 */
export function parseMasked(text: string): number | null {
  const bare = text.replace(SPACES, '');
  if (!/^\d{1,15}$/.test(bare)) return null;
  return Number(bare);
}

export function clamp(value: number, { min, max }: NumberRange): number {
  const lo = Math.min(min, max);
  const hi = Math.max(min, max);
  return Math.min(hi, Math.max(lo, value));
}

/**
 * What the input shows while the shopper types: only the digits are kept (pasted '5 000 ₽'
 * reads as 5000), grouped by thousands; a number above max becomes max at once. The lower
 * bound waits for commit(), or typing '7' on the way to '7 500' would jump to the minimum.
 */
export function maskWhileTyping(text: string, range: NumberRange): string {
  const digits = text.replace(/\D/g, '').replace(/^0+(?=\d)/, '');
  if (digits === '') return '';
  const value = Number(digits.slice(0, 15));
  return formatThousands(Math.min(value, Math.max(range.min, range.max)));
}

/** The value when the shopper is done (blur, Enter): clamped to both bounds; empty stays null. */
export function commitMasked(text: string, range: NumberRange): number | null {
  const value = parseMasked(text.replace(/[^\d\s\u00a0\u202f]/g, ''));
  return value === null ? null : clamp(value, range);
}

/** maxlength for an input that shows numbers up to max with thousands spaces. */
export function maskMaxLength(range: NumberRange): number {
  return formatThousands(Math.max(Math.abs(range.min), Math.abs(range.max))).length;
}

/**
 * Where the caret goes after reformatting: just after the same number of digits that stood
 * before it in the text the shopper typed, so inserting a digit mid-number does not throw the
 * caret to the end.
 */
export function caretAfterDigits(formatted: string, digitsBefore: number): number {
  if (digitsBefore <= 0) return 0;
  let seen = 0;
  for (let i = 0; i < formatted.length; i++) {
    if (/\d/.test(formatted[i] as string)) seen++;
    if (seen === digitsBefore) return i + 1;
  }
  return formatted.length;
}

/** How many digits stand before position `caret` in `text`. */
export function digitsBefore(text: string, caret: number): number {
  return text.slice(0, Math.max(0, caret)).replace(/\D/g, '').length;
}
