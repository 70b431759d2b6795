import { describe, expect, it } from 'vitest';
import { datesText, formatRussianDate } from './dates';

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

describe('datesText', () => {
  it('writes delivery dates in Russian long format, the year once', () => {
    expect(datesText('2026-11-25', '2026-11-25')).toBe('25 ноября 2026');
    expect(datesText('2026-11-26', '2026-12-03')).toBe('26 ноября – 3 декабря 2026');
    expect(datesText('2026-12-30', '2027-01-04')).toBe('30 декабря 2026 – 4 января 2027');
    expect(datesText(null, null)).toBeNull();
    expect(datesText('junk', 'junk')).toBeNull();
  });
});
