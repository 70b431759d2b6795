import { describe, expect, it } from 'vitest';
import {
  addCalendarDays,
  addWorkingDays,
  EXTRA_HOLIDAYS,
  EXTRA_WORKING_DAYS,
  isWorkingDay,
  MOSCOW_UTC_OFFSET_MINUTES,
  moscowNow,
  nextWorkingDay,
} from './working-days';

describe('moscowNow', () => {
  it('shifts a UTC instant by three hours', () => {
    expect(MOSCOW_UTC_OFFSET_MINUTES).toBe(180);
    expect(moscowNow(new Date('2026-11-27T14:59:00Z'))).toEqual({ date: '2026-11-27', minutes: 17 * 60 + 59 });
    expect(moscowNow(new Date('2026-11-27T15:00:00Z'))).toEqual({ date: '2026-11-27', minutes: 18 * 60 });
  });
  it('crosses midnight: 21:00 UTC is already the next Moscow day', () => {
    expect(moscowNow(new Date('2026-11-27T20:59:59Z'))).toEqual({ date: '2026-11-27', minutes: 23 * 60 + 59 });
    expect(moscowNow(new Date('2026-11-27T21:00:00Z'))).toEqual({ date: '2026-11-28', minutes: 0 });
    expect(moscowNow(new Date('2026-12-31T21:30:00Z'))).toEqual({ date: '2027-01-01', minutes: 30 });
  });
  it('does not depend on an offset written in the input', () => {
    expect(moscowNow(new Date('2026-06-01T10:00:00+03:00'))).toEqual({ date: '2026-06-01', minutes: 600 });
  });
  it('refuses an invalid date', () => {
    expect(() => moscowNow(new Date(Number.NaN))).toThrow(TypeError);
  });
});

describe('isWorkingDay', () => {
  it('weekdays work, weekends do not', () => {
    expect(isWorkingDay('2026-11-23')).toBe(true); // Monday
    expect(isWorkingDay('2026-11-27')).toBe(true); // Friday
    expect(isWorkingDay('2026-11-28')).toBe(false); // Saturday
    expect(isWorkingDay('2026-11-29')).toBe(false); // Sunday
  });
  it('New Year holidays are January 1 to 8', () => {
    for (let d = 1; d <= 8; d++) expect(isWorkingDay(`2027-01-0${d}`)).toBe(false);
    expect(isWorkingDay('2026-12-31')).toBe(true);
    expect(isWorkingDay('2027-01-11')).toBe(true);
  });
  it('the other fixed holidays', () => {
    for (const day of ['2026-02-23', '2027-03-08', '2026-05-01', '2027-05-10', '2026-06-12', '2026-11-04']) {
      // 2027-05-10 is a Monday and not a fixed holiday: the May 9 carry-over is not modelled.
      expect(isWorkingDay(day)).toBe(day === '2027-05-10');
    }
    expect(isWorkingDay('2027-05-09')).toBe(false);
    expect(isWorkingDay('2026-11-03')).toBe(true);
    expect(isWorkingDay('2026-11-05')).toBe(true);
  });
  it('refuses what is not a calendar day', () => {
    expect(() => isWorkingDay('2026-02-30')).toThrow(TypeError);
    expect(() => isWorkingDay('27.11.2026')).toThrow(TypeError);
    expect(() => isWorkingDay('')).toThrow(TypeError);
  });
  it('EXTRA_HOLIDAYS and EXTRA_WORKING_DAYS override the fixed rules', () => {
    const holidays = EXTRA_HOLIDAYS as Set<string>;
    const working = EXTRA_WORKING_DAYS as Set<string>;
    holidays.add('2026-12-31');
    working.add('2026-11-28');
    try {
      expect(isWorkingDay('2026-12-31')).toBe(false);
      expect(isWorkingDay('2026-11-28')).toBe(true);
      expect(nextWorkingDay('2026-12-30')).toBe('2027-01-11');
      expect(nextWorkingDay('2026-11-27')).toBe('2026-11-28');
    } finally {
      holidays.delete('2026-12-31');
      working.delete('2026-11-28');
    }
    expect(EXTRA_HOLIDAYS.size).toBe(0);
    expect(EXTRA_WORKING_DAYS.size).toBe(0);
  });
});

describe('addCalendarDays', () => {
  it('adds across months, years and leap days', () => {
    expect(addCalendarDays('2026-11-27', 0)).toBe('2026-11-27');
    expect(addCalendarDays('2026-11-27', 9)).toBe('2026-12-06');
    expect(addCalendarDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addCalendarDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addCalendarDays('2027-02-28', 1)).toBe('2027-03-01');
    expect(addCalendarDays('2027-01-01', -1)).toBe('2026-12-31');
  });
  it('refuses fractions', () => {
    expect(() => addCalendarDays('2026-11-27', 1.5)).toThrow(RangeError);
  });
});

describe('nextWorkingDay', () => {
  it('is strictly after the date', () => {
    expect(nextWorkingDay('2026-11-24')).toBe('2026-11-25');
    expect(nextWorkingDay('2026-11-27')).toBe('2026-11-30'); // Friday → Monday
    expect(nextWorkingDay('2026-11-28')).toBe('2026-11-30'); // Saturday → Monday
  });
  it('skips the New Year break and the May holidays', () => {
    expect(nextWorkingDay('2026-12-31')).toBe('2027-01-11');
    expect(nextWorkingDay('2026-04-30')).toBe('2026-05-04'); // May 1 Friday + weekend
    expect(nextWorkingDay('2026-11-03')).toBe('2026-11-05');
  });
});

describe('addWorkingDays', () => {
  it('0 is the day itself when working, else the next working day', () => {
    expect(addWorkingDays('2026-11-27', 0)).toBe('2026-11-27');
    expect(addWorkingDays('2026-11-28', 0)).toBe('2026-11-30');
    expect(addWorkingDays('2027-01-01', 0)).toBe('2027-01-11');
  });
  it('counts only working days', () => {
    expect(addWorkingDays('2026-11-24', 3)).toBe('2026-11-27');
    expect(addWorkingDays('2026-11-26', 3)).toBe('2026-12-01');
    expect(addWorkingDays('2026-12-30', 3)).toBe('2027-01-12');
    expect(addWorkingDays('2026-04-29', 3)).toBe('2026-05-05');
  });
  it('refuses negative or fractional counts', () => {
    expect(() => addWorkingDays('2026-11-24', -1)).toThrow(RangeError);
    expect(() => addWorkingDays('2026-11-24', 0.5)).toThrow(RangeError);
  });
});
