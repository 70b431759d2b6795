// Phone numbers as the shop keeps them (SPEC §5: stripped to digits before sending; §9: mask
// +7 (###) ###-##-##). One reading for login, fast order and the waiting list, so the same
// shopper typing '8 (999) …' once and '+7 999 …' another time is the same phone.

export type NormalizedPhone = { ok: true; phone: string; russian: boolean } | { ok: false };

/** Shortest and longest foreign number accepted (E.164 allows at most 15 digits). */
const FOREIGN_MIN_DIGITS = 10;
const FOREIGN_MAX_DIGITS = 15;

/**
 * Digits only, with Russian numbers brought to 11 digits starting with 7:
 * - 11 digits starting with 7 or 8 (the domestic trunk prefix) → 7XXXXXXXXXX;
 * - 10 digits starting with 9 (a mobile without any prefix) → 79XXXXXXXXX;
 * - other numbers of 10–15 digits are kept as typed and flagged foreign.
 * Rejected: fewer than 10 or more than 15 digits; a leading 0 (no country code starts with 0);
 * a leading 7 of any other length than 11 (+7 numbers always have exactly 10 national digits);
 * 10 digits starting with 8 (a Russian '8 …' number with a digit missing, not a foreign one —
 * every +8x country code is followed by more digits than that).
 */
export function normalizePhone(input: string): NormalizedPhone {
  const digits = input.replace(/\D/g, '');
  if (digits.length === 11 && (digits[0] === '7' || digits[0] === '8')) {
    return { ok: true, phone: `7${digits.slice(1)}`, russian: true };
  }
  if (digits.length === 10 && digits[0] === '9') {
    return { ok: true, phone: `7${digits}`, russian: true };
  }
  if (digits.length < FOREIGN_MIN_DIGITS || digits.length > FOREIGN_MAX_DIGITS) return { ok: false };
  if (digits[0] === '0' || digits[0] === '7') return { ok: false };
  if (digits.length === 10 && digits[0] === '8') return { ok: false };
  return { ok: true, phone: digits, russian: false };
}

/**
 * '79990000000' → '+7 (999) 000-00-00' (18 characters: the "full mask" SPEC §5 waits for);
 * any other digits → '+<digits>'; no digits → ''. Non-digits in the argument are ignored, so
 * an already formatted number formats the same again.
 */
export function formatPhoneMask(digits: string): string {
  const d = digits.replace(/\D/g, '');
  const m = /^7(\d{3})(\d{3})(\d{2})(\d{2})$/.exec(d);
  if (m) return `+7 (${m[1]}) ${m[2]}-${m[3]}-${m[4]}`;
  return d === '' ? '' : `+${d}`;
}
