// SPEC §2/§9 phone mask '+7 (###) ###-##-##' while the shopper types (login, fast order, the
// waiting list). Pure: the input component keeps the caret; core/phone.ts reads the result.

export const PHONE_MASK_LENGTH = '+7 (###) ###-##-##'.length;
const NATIONAL_DIGITS = 10;

/**
 * The ten national digits in what the shopper typed or pasted: the country code of an already
 * masked text ('+7 …'), or the 7/8 prefix of a pasted eleven-digit number, is not one of them.
 */
export function nationalDigits(text: string): string {
  const digits = text.replace(/\D/g, '');
  if (/^\s*\+\s*7/.test(text)) return digits.slice(1, 1 + NATIONAL_DIGITS);
  if (digits.length >= 11 && (digits[0] === '7' || digits[0] === '8')) return digits.slice(1, 1 + NATIONAL_DIGITS);
  return digits.slice(0, NATIONAL_DIGITS);
}

/**
 * What the input shows: '+7 (999) 000-00-00' as far as digits go. A first '7' or '8' typed into
 * an empty field starts the mask ('+7 ('); a mask left with no national digits empties the field,
 * so deleting backwards never gets stuck on '+7 ('.
 */
export function maskPhoneWhileTyping(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '7' || trimmed === '8' || trimmed === '+' || trimmed === '+7') return '+7 (';
  const d = nationalDigits(text);
  if (d === '') return '';
  let out = `+7 (${d.slice(0, 3)}`;
  if (d.length > 3) out += `) ${d.slice(3, 6)}`;
  if (d.length > 6) out += `-${d.slice(6, 8)}`;
  if (d.length > 8) out += `-${d.slice(8, 10)}`;
  return out;
}

/** The full mask is typed (SPEC §5: 18 characters). */
export function isPhoneMaskComplete(masked: string): boolean {
  return nationalDigits(masked).length === NATIONAL_DIGITS;
}

/** Digits to send (SPEC §5: stripped of all non-digits): '+7 (999) 000-00-00' → '79990000000'. */
export function phoneDigits(masked: string): string {
  const d = nationalDigits(masked);
  return d === '' ? '' : `7${d}`;
}
