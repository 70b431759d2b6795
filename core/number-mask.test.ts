import { describe, expect, it } from 'vitest';
import {
  caretAfterDigits,
  clamp,
  commitMasked,
  digitsBefore,
  formatThousands,
  maskMaxLength,
  maskWhileTyping,
  parseMasked,
} from './number-mask';

const RANGE = { min: 3_000, max: 65_000 };

describe('formatThousands', () => {
  it('groups thousands with a space', () => {
    expect(formatThousands(0)).toBe('0');
    expect(formatThousands(999)).toBe('999');
    expect(formatThousands(1000)).toBe('1 000');
    expect(formatThousands(65000)).toBe('65 000');
    expect(formatThousands(1234567)).toBe('1 234 567');
  });

  it('drops fractions and keeps the sign', () => {
    expect(formatThousands(1234.9)).toBe('1 234');
    expect(formatThousands(-12000)).toBe('-12 000');
    expect(formatThousands(Number.NaN)).toBe('');
  });
});

describe('parseMasked', () => {
  it('strips spaces, also no-break ones, before parsing', () => {
    expect(parseMasked('12 500')).toBe(12500);
    expect(parseMasked('1\u00a0234\u202f567')).toBe(1234567);
    expect(parseMasked(' 700 ')).toBe(700);
  });

  it('gives null for empty or unreadable text', () => {
    expect(parseMasked('')).toBeNull();
    expect(parseMasked('   ')).toBeNull();
    expect(parseMasked('12a')).toBeNull();
    expect(parseMasked('-5')).toBeNull();
    expect(parseMasked('1.5')).toBeNull();
  });
});

describe('clamp', () => {
  it('keeps a value inside min and max', () => {
    expect(clamp(100, RANGE)).toBe(3000);
    expect(clamp(70000, RANGE)).toBe(65000);
    expect(clamp(12000, RANGE)).toBe(12000);
  });

  it('tolerates bounds given the wrong way round', () => {
    expect(clamp(1, { min: 10, max: 5 })).toBe(5);
  });
});

describe('maskWhileTyping', () => {
  it('formats the digits typed so far', () => {
    expect(maskWhileTyping('12500', RANGE)).toBe('12 500');
    expect(maskWhileTyping('1 25 00', RANGE)).toBe('12 500');
    expect(maskWhileTyping('', RANGE)).toBe('');
  });

  it('keeps only digits from pasted text and drops leading zeros', () => {
    expect(maskWhileTyping('от 5 000 ₽', RANGE)).toBe('5 000');
    expect(maskWhileTyping('0007', RANGE)).toBe('7');
    expect(maskWhileTyping('0', RANGE)).toBe('0');
  });

  it('clamps to max at once but leaves the minimum for commit', () => {
    expect(maskWhileTyping('999999', RANGE)).toBe('65 000');
    expect(maskWhileTyping('7', RANGE)).toBe('7');
  });
});

describe('commitMasked', () => {
  it('clamps to both bounds', () => {
    expect(commitMasked('7', RANGE)).toBe(3000);
    expect(commitMasked('80 000', RANGE)).toBe(65000);
    expect(commitMasked('12 500', RANGE)).toBe(12500);
  });

  it('ignores a currency sign and leaves empty as null', () => {
    expect(commitMasked('12 500 ₽', RANGE)).toBe(12500);
    expect(commitMasked('', RANGE)).toBeNull();
  });
});

describe('maskMaxLength', () => {
  it('is the length of the formatted maximum', () => {
    expect(maskMaxLength(RANGE)).toBe('65 000'.length);
    expect(maskMaxLength({ min: 0, max: 1_500_000 })).toBe('1 500 000'.length);
  });
});

describe('caret helpers', () => {
  it('counts the digits before the caret', () => {
    expect(digitsBefore('12 500', 4)).toBe(3);
    expect(digitsBefore('12 500', 0)).toBe(0);
  });

  it('puts the caret after the same digits in the formatted text', () => {
    // '1250' with the caret after '125', reformatted to '1 250'.
    expect(caretAfterDigits('1 250', 3)).toBe(4);
    expect(caretAfterDigits('12 500', 2)).toBe(2);
    expect(caretAfterDigits('12 500', 0)).toBe(0);
    expect(caretAfterDigits('12 500', 9)).toBe(6);
  });
});
