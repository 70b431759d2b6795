// Gift certificates (content/pages/podarochnye-sertifikaty.md): five nominals, electronic or
// plastic, 12 months valid, a code that cannot be guessed (15 random digits, 10^15 of them, plus a
// Luhn check digit that catches a mistyped digit before any lookup), and how certificates pay an
// order: each in the order given, up to what is left to pay, the rest staying on it. Pure.

import { formatRub } from './money';
import { formatRussianDate } from './dates';
import { moscowNow } from './working-days';

/** A moment as the Moscow calendar day shoppers read ('24 ноября 2027'). */
export function moscowDate(at: Date): string {
  return formatRussianDate(moscowNow(at).date);
}

export const CERTIFICATE_NOMINALS_KOPECKS = [500_000, 1_000_000, 1_500_000, 2_500_000, 5_000_000] as const;
export const CERTIFICATE_VALID_MONTHS = 12;
export const CERTIFICATE_CODE_DIGITS = 16;
/** Certificates one order may use ("несколько сертификатов: в одном заказе их можно использовать вместе"). */
export const MAX_CERTIFICATES_PER_ORDER = 5;

export type CertificateKind = 'electronic' | 'plastic';

export const CERTIFICATE_TEXT = {
  badCode: 'Проверьте номер сертификата: в нём 16 цифр',
  notFound: 'Сертификат с таким номером не найден',
  expired: (expiresAt: Date) => `Срок действия сертификата истёк ${moscowDate(expiresAt)}`,
  empty: 'На сертификате не осталось средств',
  duplicate: 'Этот сертификат уже указан',
  tooMany: `В одном заказе можно использовать не больше ${MAX_CERTIFICATES_PER_ORDER} сертификатов`,
  rateLimited: 'Слишком много попыток проверить сертификат. Попробуйте через час или напишите нам в чат',
  notForCertificates: 'Сертификатом нельзя оплатить другой подарочный сертификат',
  nothingToPay: 'Заказ уже оплачен сертификатами: уберите лишний',
  onlineOnly: 'Подарочный сертификат можно оплатить только картой онлайн или частями',
  noPromo: 'Промокод не действует на подарочные сертификаты',
  noBonuses: 'Подарочный сертификат нельзя оплатить бонусами',
  balance: (balanceKopecks: number, expiresAt: Date) =>
    `На сертификате ${formatRub(balanceKopecks)}, действует до ${moscowDate(expiresAt)}`,
  changed: 'Баланс сертификата изменился: проверьте сумму и подтвердите заказ ещё раз',
  // Voided by staff (issue #30, the back office): SPEC has no text for it.
  voided: 'Сертификат аннулирован. Если это ошибка, напишите нам в чат',
} as const;

/** The Luhn check digit of a string of digits. */
export function luhnCheckDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    // Doubling starts from the rightmost digit of the payload (the check digit goes after it).
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

/** '1234 5678-9012 3456' -> '1234567890123456' when it is 16 digits with a right check digit; else null. */
export function normalizeCertificateCode(input: string | null | undefined): string | null {
  if (typeof input !== 'string' || input.length > 64) return null;
  const digits = input.replace(/[\s\u00a0-]/g, '');
  if (!/^\d{16}$/.test(digits)) return null;
  return luhnCheckDigit(digits.slice(0, 15)) === Number(digits[15]) ? digits : null;
}

/** A new code from a source of random bytes (crypto.randomBytes on the server): no leading zero. */
export function newCertificateCode(randomBytes: (n: number) => Uint8Array): string {
  let payload = '';
  while (payload.length < 15) {
    for (const b of randomBytes(32)) {
      // Rejection sampling keeps every digit equally likely (250 = 25 × 10).
      if (b >= 250) continue;
      const d = b % 10;
      if (payload.length === 0 && d === 0) continue;
      payload += String(d);
      if (payload.length === 15) break;
    }
  }
  return payload + String(luhnCheckDigit(payload));
}

/** '1234567890123456' -> '1234 5678 9012 3456'. */
export function formatCertificateCode(code: string): string {
  return code.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** The last four digits, for lists and logs: '•••• 3456'. */
export function maskCertificateCode(code: string): string {
  return `•••• ${code.slice(-4)}`;
}

/**
 * Valid 12 months from the purchase (podarochnye-sertifikaty.md «с даты покупки»: the order's
 * payment; a certificate issued by hand, its issue): until the same moment 12 months later.
 */
export function certificateExpiry(purchasedAt: Date): Date {
  const d = new Date(purchasedAt.getTime());
  d.setUTCMonth(d.getUTCMonth() + CERTIFICATE_VALID_MONTHS);
  return d;
}

export interface CertificateBalance {
  code: string;
  balanceKopecks: number;
  expiresAt: Date;
  /** Voided by staff: it never pays again, whatever its balance. */
  voidedAt?: Date | null;
}

export type CertificateState = { ok: true } | { ok: false; error: string };

/** Can this certificate pay now? */
export function certificateState(c: CertificateBalance, now: Date): CertificateState {
  if (c.voidedAt) return { ok: false, error: CERTIFICATE_TEXT.voided };
  if (c.expiresAt.getTime() <= now.getTime()) return { ok: false, error: CERTIFICATE_TEXT.expired(c.expiresAt) };
  if (c.balanceKopecks <= 0) return { ok: false, error: CERTIFICATE_TEXT.empty };
  return { ok: true };
}

/**
 * How much each certificate pays of `dueKopecks` (what is left after bonuses, without the
 * certificate lines): in the order given, each up to its balance. A certificate that would pay
 * nothing (the order is covered already) is refused so the shopper does not lose track of it.
 */
export function applyCertificates(
  dueKopecks: number,
  certificates: readonly CertificateBalance[],
):
  | { ok: true; amounts: { code: string; amountKopecks: number }[]; totalKopecks: number }
  | { ok: false; code: string; error: string } {
  let left = Math.max(0, dueKopecks);
  const amounts: { code: string; amountKopecks: number }[] = [];
  for (const c of certificates) {
    if (left === 0) return { ok: false, code: c.code, error: CERTIFICATE_TEXT.nothingToPay };
    const amount = Math.min(left, c.balanceKopecks);
    amounts.push({ code: c.code, amountKopecks: amount });
    left -= amount;
  }
  return { ok: true, amounts, totalKopecks: Math.max(0, dueKopecks) - left };
}

/** Codes as the form sends them ('a, b' or several fields): normalised, or the first problem. */
export function parseCertificateCodes(
  inputs: readonly string[],
): { ok: true; codes: string[] } | { ok: false; input: string; error: string } {
  const codes: string[] = [];
  for (const raw of inputs
    .flatMap((s) => s.split(/[,;\n]/))
    .map((s) => s.trim())
    .filter(Boolean)) {
    const code = normalizeCertificateCode(raw);
    if (!code) return { ok: false, input: raw, error: CERTIFICATE_TEXT.badCode };
    if (codes.includes(code)) return { ok: false, input: raw, error: CERTIFICATE_TEXT.duplicate };
    codes.push(code);
  }
  if (codes.length > MAX_CERTIFICATES_PER_ORDER) return { ok: false, input: '', error: CERTIFICATE_TEXT.tooMany };
  return { ok: true, codes };
}
