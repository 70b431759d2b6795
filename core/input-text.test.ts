import { describe, expect, it } from 'vitest';
import { findRefusedText, hasRefusedCharacter, withoutRefusedCharacters } from './input-text';

describe('hasRefusedCharacter', () => {
  it('refuses NUL, other control characters and lone surrogates', () => {
    for (const bad of ['VITRINA10\u0000', 'a\u0001b', '\u001b[31m', 'x\u007f', '\u0085', 'a\ud800', '\udc00b'])
      expect(hasRefusedCharacter(bad), JSON.stringify(bad)).toBe(true);
  });
  it('keeps ordinary text, tabs, line breaks and astral characters', () => {
    for (const good of ['', 'Анна-Мария', 'ул. Ленина, 1\r\nкв. 2', 'a\tb', 'Пальто 👗', '№ 5 — «да»'])
      expect(hasRefusedCharacter(good), JSON.stringify(good)).toBe(false);
  });
});

describe('withoutRefusedCharacters', () => {
  it('turns each refused character into a space and keeps the rest', () => {
    expect(withoutRefusedCharacters('пальто\u0001 46')).toBe('пальто  46');
    expect(withoutRefusedCharacters('\u0000\uD800x')).toBe('  x');
    expect(withoutRefusedCharacters('Пальто 👗\tок')).toBe('Пальто 👗\tок');
  });
});

describe('findRefusedText', () => {
  it('names the path of the first refused text, keys included', () => {
    expect(findRefusedText({ promo_code: 'VITRINA10\u0000' })).toEqual(['promo_code']);
    expect(findRefusedText({ change: { firstname: 'ok', email: 'a\u0000@b.ru' } })).toEqual(['change', 'email']);
    expect(findRefusedText({ ids: ['1', '2\u0007'] })).toEqual(['ids', 1]);
    expect(findRefusedText({ 'bad\u0000key': 'x' })).toEqual(['bad\u0000key']);
  });
  it('is null for clean input of any shape', () => {
    expect(findRefusedText(undefined)).toBeNull();
    expect(findRefusedText({ a: 1, b: [true, null, 'текст'], c: { d: 'e' } })).toBeNull();
  });
});
