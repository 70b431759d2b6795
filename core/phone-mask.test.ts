import { describe, expect, it } from 'vitest';
import {
  isPhoneMaskComplete,
  maskPhoneWhileTyping,
  nationalDigits,
  PHONE_MASK_LENGTH,
  phoneDigits,
} from './phone-mask';

describe('maskPhoneWhileTyping', () => {
  it('builds the mask digit by digit', () => {
    const steps = [
      '9',
      '+7 (99',
      '+7 (999',
      '+7 (9990',
      '+7 (999) 000',
      '+7 (999) 0000',
      '+7 (999) 000-000',
      '+7 (999) 000-00-0',
      '+7 (999) 000-00-00',
    ];
    expect(steps.map(maskPhoneWhileTyping)).toEqual([
      '+7 (9',
      '+7 (99',
      '+7 (999',
      '+7 (999) 0',
      '+7 (999) 000',
      '+7 (999) 000-0',
      '+7 (999) 000-00-0',
      '+7 (999) 000-00-0',
      '+7 (999) 000-00-00',
    ]);
    expect(maskPhoneWhileTyping('+7 (999) 000-00-00').length).toBe(PHONE_MASK_LENGTH);
  });

  it('starts the mask on a first 7 or 8 and empties it when the digits are gone', () => {
    expect(maskPhoneWhileTyping('8')).toBe('+7 (');
    expect(maskPhoneWhileTyping('7')).toBe('+7 (');
    expect(maskPhoneWhileTyping('+7 ')).toBe('+7 (');
    expect(maskPhoneWhileTyping('+7 (')).toBe('');
    expect(maskPhoneWhileTyping('')).toBe('');
  });

  it('reads pasted numbers in any usual form', () => {
    for (const pasted of ['89990000000', '+7 999 000 00 00', '7 (999) 000-00-00', '9990000000', '+79990000000']) {
      expect(maskPhoneWhileTyping(pasted)).toBe('+7 (999) 000-00-00');
    }
  });

  it('keeps an 8xx national code after the country code', () => {
    expect(maskPhoneWhileTyping('+7 (8')).toBe('+7 (8');
    expect(maskPhoneWhileTyping('+7 (800) 555-35-35')).toBe('+7 (800) 555-35-35');
  });

  it('drops extra digits', () => {
    expect(maskPhoneWhileTyping('+7 (999) 000-00-001')).toBe('+7 (999) 000-00-00');
  });
});

describe('phoneDigits and isPhoneMaskComplete', () => {
  it('sends 11 digits starting with 7', () => {
    expect(phoneDigits('+7 (999) 000-00-00')).toBe('79990000000');
    expect(phoneDigits('')).toBe('');
    expect(nationalDigits('+7 (999) 0')).toBe('9990');
  });
  it('is complete with all ten national digits', () => {
    expect(isPhoneMaskComplete('+7 (999) 000-00-00')).toBe(true);
    expect(isPhoneMaskComplete('+7 (999) 000-00-0')).toBe(false);
  });
});
