import { describe, expect, it } from 'vitest';
import { formatPhoneMask, normalizePhone } from './phone';

describe('normalizePhone: Russian numbers', () => {
  it('reads every usual way of writing the same mobile as 7XXXXXXXXXX', () => {
    for (const typed of [
      '+7 (999) 123-45-67',
      '8 (999) 123-45-67',
      '89991234567',
      '79991234567',
      '9991234567',
      '999 123 45 67',
      ' +7-999-123-45-67 ',
      'тел.: 8 999 123 45 67',
    ]) {
      expect(normalizePhone(typed)).toEqual({ ok: true, phone: '79991234567', russian: true });
    }
  });

  it('brings Moscow landlines with 8 to 7 as well', () => {
    expect(normalizePhone('8 (495) 123-45-67')).toEqual({ ok: true, phone: '74951234567', russian: true });
  });

  it('keeps Kazakhstan +7 numbers in the +7 form', () => {
    expect(normalizePhone('+7 701 123 4567')).toEqual({ ok: true, phone: '77011234567', russian: true });
  });
});

describe('normalizePhone: foreign numbers', () => {
  it('accepts 10 to 15 digits as typed', () => {
    expect(normalizePhone('+375 29 123-45-67')).toEqual({ ok: true, phone: '375291234567', russian: false });
    expect(normalizePhone('+1 (212) 555-0123')).toEqual({ ok: true, phone: '12125550123', russian: false });
    expect(normalizePhone('+86 138 0013 8000')).toEqual({ ok: true, phone: '8613800138000', russian: false });
    expect(normalizePhone('4930123456')).toEqual({ ok: true, phone: '4930123456', russian: false });
    expect(normalizePhone('123456789012345')).toEqual({ ok: true, phone: '123456789012345', russian: false });
  });

  it('treats 10 digits not starting with 9 as foreign, not as a Russian number', () => {
    expect(normalizePhone('4951234567')).toEqual({ ok: true, phone: '4951234567', russian: false });
  });
});

describe('normalizePhone: rejects', () => {
  it('empty, letters only and too short', () => {
    for (const junk of ['', '   ', 'abc', 'телефон', '+7', '999123456', '12345', '+7 (999) 123-45']) {
      expect(normalizePhone(junk)).toEqual({ ok: false });
    }
  });

  it('too long', () => {
    expect(normalizePhone('1234567890123456')).toEqual({ ok: false });
    expect(normalizePhone('+375 29 123-45-67 доб. 1234')).toEqual({ ok: false });
  });

  it('+7 numbers of the wrong length', () => {
    expect(normalizePhone('7999123456')).toEqual({ ok: false });
    expect(normalizePhone('799912345678')).toEqual({ ok: false });
    expect(normalizePhone('+7 (999) 123-45-67 доб. 123')).toEqual({ ok: false });
  });

  it('a Russian 8 number missing a digit', () => {
    expect(normalizePhone('8999123456')).toEqual({ ok: false });
  });

  it('a leading 0 (no country code starts with 0)', () => {
    expect(normalizePhone('0123456789')).toEqual({ ok: false });
  });
});

describe('formatPhoneMask', () => {
  it('gives the SPEC mask for Russian numbers, 18 characters long', () => {
    expect(formatPhoneMask('79990000000')).toBe('+7 (999) 000-00-00');
    expect(formatPhoneMask('74951234567')).toBe('+7 (495) 123-45-67');
    expect(formatPhoneMask('79990000000')).toHaveLength(18);
  });

  it('formats its own output and normalised input the same', () => {
    expect(formatPhoneMask('+7 (999) 123-45-67')).toBe('+7 (999) 123-45-67');
    const n = normalizePhone('8 999 123 45 67');
    expect(n.ok && formatPhoneMask(n.phone)).toBe('+7 (999) 123-45-67');
  });

  it('writes other numbers as + and digits', () => {
    expect(formatPhoneMask('375291234567')).toBe('+375291234567');
    expect(formatPhoneMask('7999')).toBe('+7999');
    expect(formatPhoneMask('89991234567')).toBe('+89991234567');
  });

  it('gives nothing for no digits', () => {
    expect(formatPhoneMask('')).toBe('');
    expect(formatPhoneMask('abc')).toBe('');
  });
});
