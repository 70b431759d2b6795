import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import {
  applyCertificates,
  certificateExpiry,
  certificateState,
  CERTIFICATE_TEXT,
  formatCertificateCode,
  luhnCheckDigit,
  newCertificateCode,
  normalizeCertificateCode,
  parseCertificateCodes,
} from './gift-certificates';

describe('certificate codes', () => {
  it('computes the Luhn check digit', () => {
    // The textbook example: 7992739871 has check digit 3.
    expect(luhnCheckDigit('7992739871')).toBe(3);
  });

  it('makes 16-digit codes whose check digit holds, with no leading zero', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 500; i++) {
      const code = newCertificateCode((n) => randomBytes(n));
      expect(code).toMatch(/^[1-9]\d{15}$/);
      expect(normalizeCertificateCode(code)).toBe(code);
      seen.add(code);
    }
    expect(seen.size).toBe(500);
  });

  it('uses every digit evenly (rejection sampling, no modulo bias)', () => {
    const counts = new Array(10).fill(0) as number[];
    for (let i = 0; i < 2000; i++)
      for (const d of newCertificateCode((n) => randomBytes(n)).slice(1, 15)) counts[Number(d)]!++;
    for (const c of counts) expect(c).toBeGreaterThan(2300); // 28 000 digits, 2 800 expected each
  });

  it('accepts spaces and dashes, refuses a mistyped digit or a swap of neighbours', () => {
    const code = newCertificateCode((n) => randomBytes(n));
    expect(normalizeCertificateCode(formatCertificateCode(code))).toBe(code);
    expect(normalizeCertificateCode(code.replace(/(\d{4})(?=\d)/g, '$1-'))).toBe(code);
    const typo = code.slice(0, 5) + String((Number(code[5]) + 1) % 10) + code.slice(6);
    expect(normalizeCertificateCode(typo)).toBeNull();
    if (code[3] !== code[4] && Math.abs(Number(code[3]) - Number(code[4])) !== 9) {
      const swapped = code.slice(0, 3) + code[4] + code[3] + code.slice(5);
      expect(normalizeCertificateCode(swapped)).toBeNull();
    }
    for (const junk of ['', 'abc', '123', `${code}1`, null, undefined, 'x'.repeat(100)])
      expect(normalizeCertificateCode(junk)).toBeNull();
  });

  it('formats in groups of four', () => {
    expect(formatCertificateCode('1234567890123456')).toBe('1234 5678 9012 3456');
  });
});

describe('certificate validity and payment', () => {
  const now = new Date('2026-11-24T12:00:00Z');
  it('is valid 12 months', () => {
    expect(certificateExpiry(now).toISOString()).toBe('2027-11-24T12:00:00.000Z');
  });

  it('refuses an expired or empty certificate, in Russian', () => {
    expect(
      certificateState({ code: 'a', balanceKopecks: 100, expiresAt: new Date('2026-11-24T11:00:00Z') }, now),
    ).toEqual({
      ok: false,
      error: 'Срок действия сертификата истёк 24 ноября 2026',
    });
    expect(certificateState({ code: 'a', balanceKopecks: 0, expiresAt: new Date('2027-01-01') }, now)).toEqual({
      ok: false,
      error: CERTIFICATE_TEXT.empty,
    });
    expect(certificateState({ code: 'a', balanceKopecks: 1, expiresAt: new Date('2027-01-01') }, now)).toEqual({
      ok: true,
    });
  });

  it('refuses a voided certificate whatever its balance (the back office voids it, issue #30)', () => {
    expect(
      certificateState(
        { code: 'a', balanceKopecks: 500_000, expiresAt: new Date('2027-01-01'), voidedAt: new Date('2026-11-20') },
        now,
      ),
    ).toEqual({ ok: false, error: CERTIFICATE_TEXT.voided });
  });

  it('pays in the order given, each up to its balance, the rest staying on it', () => {
    const exp = new Date('2027-01-01');
    expect(
      applyCertificates(1_200_000, [
        { code: 'a', balanceKopecks: 500_000, expiresAt: exp },
        { code: 'b', balanceKopecks: 1_000_000, expiresAt: exp },
      ]),
    ).toEqual({
      ok: true,
      amounts: [
        { code: 'a', amountKopecks: 500_000 },
        { code: 'b', amountKopecks: 700_000 },
      ],
      totalKopecks: 1_200_000,
    });
    expect(applyCertificates(300_000, [{ code: 'a', balanceKopecks: 500_000, expiresAt: exp }])).toMatchObject({
      ok: true,
      totalKopecks: 300_000,
    });
  });

  it('refuses a certificate that would pay nothing', () => {
    const exp = new Date('2027-01-01');
    expect(
      applyCertificates(300_000, [
        { code: 'a', balanceKopecks: 500_000, expiresAt: exp },
        { code: 'b', balanceKopecks: 500_000, expiresAt: exp },
      ]),
    ).toEqual({ ok: false, code: 'b', error: CERTIFICATE_TEXT.nothingToPay });
  });

  it('parses the form field: several codes, duplicates and bad ones refused', () => {
    const a = newCertificateCode((n) => randomBytes(n));
    const b = newCertificateCode((n) => randomBytes(n));
    expect(parseCertificateCodes([`${formatCertificateCode(a)}, ${b}`])).toEqual({ ok: true, codes: [a, b] });
    expect(parseCertificateCodes([a, a])).toMatchObject({ ok: false, error: CERTIFICATE_TEXT.duplicate });
    expect(parseCertificateCodes(['1234'])).toMatchObject({ ok: false, error: CERTIFICATE_TEXT.badCode });
    expect(parseCertificateCodes([''])).toEqual({ ok: true, codes: [] });
    const six = Array.from({ length: 6 }, () => newCertificateCode((n) => randomBytes(n)));
    expect(parseCertificateCodes(six)).toMatchObject({ ok: false, error: CERTIFICATE_TEXT.tooMany });
  });
});
