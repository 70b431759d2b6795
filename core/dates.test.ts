import { describe, expect, it } from 'vitest';
import { formatRussianDate } from './dates';

describe('formatRussianDate', () => {
  it('writes a calendar day in Russian long format', () => {
    expect(formatRussianDate('2026-10-14')).toBe('14 октября 2026');
    expect(formatRussianDate('2026-01-01')).toBe('1 января 2026');
    expect(formatRussianDate(new Date(2026, 4, 9))).toBe('9 мая 2026');
  });
  it('refuses what is not a date', () => {
    expect(() => formatRussianDate('2026-13-01')).toThrow(TypeError);
    expect(() => formatRussianDate('14.10.2026')).toThrow(TypeError);
    expect(() => formatRussianDate(new Date(Number.NaN))).toThrow(TypeError);
  });
});
