import { afterEach, describe, expect, it } from 'vitest';
import { formatRussianDate } from './dates';
import {
  INSTALMENT_MAX_KOPECKS,
  INSTALMENT_MIN_KOPECKS,
  INSTALMENT_PAYMENTS,
  INSTALMENT_STEP_DAYS,
  instalmentSchedule,
  isInstalmentAvailable,
  INSTALMENT_TEXT,
  instalmentUnavailableReason,
  isoDay,
} from './instalments';

const TODAY = new Date(2026, 10, 22, 15, 30); // 22 November 2026, 15:30 local

function dates(priceKopecks: number, today: Date): string[] {
  const schedule = instalmentSchedule(priceKopecks, today);
  if (!schedule) throw new Error('expected a schedule');
  return schedule.map((p) => formatRussianDate(p.date));
}

function sum(priceKopecks: number): number {
  return (instalmentSchedule(priceKopecks, TODAY) ?? []).reduce((total, p) => total + p.amountKopecks, 0);
}

describe('instalment constants (SPEC §9)', () => {
  it('are four payments two weeks apart for 500–40 000 RUB', () => {
    expect(INSTALMENT_PAYMENTS).toBe(4);
    expect(INSTALMENT_STEP_DAYS).toBe(14);
    expect(INSTALMENT_MIN_KOPECKS).toBe(500_00);
    expect(INSTALMENT_MAX_KOPECKS).toBe(40_000_00);
  });
});

describe('instalmentSchedule amounts', () => {
  it('splits a price divisible by four into equal quarters', () => {
    expect(instalmentSchedule(2_000_000, TODAY)?.map((p) => p.amountKopecks)).toEqual([
      500_000, 500_000, 500_000, 500_000,
    ]);
    expect(instalmentSchedule(50_000, TODAY)?.map((p) => p.amountKopecks)).toEqual([12_500, 12_500, 12_500, 12_500]);
  });

  it('puts the remainder on the first payment, the other three are equal', () => {
    expect(instalmentSchedule(50_001, TODAY)?.map((p) => p.amountKopecks)).toEqual([12_501, 12_500, 12_500, 12_500]);
    expect(instalmentSchedule(50_002, TODAY)?.map((p) => p.amountKopecks)).toEqual([12_502, 12_500, 12_500, 12_500]);
    expect(instalmentSchedule(50_003, TODAY)?.map((p) => p.amountKopecks)).toEqual([12_503, 12_500, 12_500, 12_500]);
    // 12 345,67 RUB
    expect(instalmentSchedule(1_234_567, TODAY)?.map((p) => p.amountKopecks)).toEqual([
      308_644, 308_641, 308_641, 308_641,
    ]);
    // 39 999,99 RUB
    expect(instalmentSchedule(3_999_999, TODAY)?.map((p) => p.amountKopecks)).toEqual([
      1_000_002, 999_999, 999_999, 999_999,
    ]);
  });

  it('sums exactly to the price for every kopeck amount in a range and for sampled prices', () => {
    for (let price = INSTALMENT_MIN_KOPECKS; price < INSTALMENT_MIN_KOPECKS + 2_000; price++)
      expect(sum(price)).toBe(price);
    for (let price = INSTALMENT_MAX_KOPECKS - 2_000; price <= INSTALMENT_MAX_KOPECKS; price++)
      expect(sum(price)).toBe(price);
    // Catalogue prices of SPEC §9 and odd kopecks across the range.
    for (const price of [980_000, 1_380_000, 1_980_000, 3_200_000, 1_999, 77_777, 123_457, 2_500_001, 3_333_333]) {
      if (price < INSTALMENT_MIN_KOPECKS) continue;
      expect(sum(price)).toBe(price);
    }
    let seed = 7;
    for (let i = 0; i < 5_000; i++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      const price = INSTALMENT_MIN_KOPECKS + (seed % (INSTALMENT_MAX_KOPECKS - INSTALMENT_MIN_KOPECKS + 1));
      const schedule = instalmentSchedule(price, TODAY);
      expect(schedule).toHaveLength(4);
      expect(sum(price)).toBe(price);
      for (const p of schedule ?? []) expect(Number.isSafeInteger(p.amountKopecks)).toBe(true);
      // Never more than 3 kopecks between the first payment and the others.
      const [first, second] = schedule ?? [];
      expect((first?.amountKopecks ?? 0) - (second?.amountKopecks ?? 0)).toBeGreaterThanOrEqual(0);
      expect((first?.amountKopecks ?? 0) - (second?.amountKopecks ?? 0)).toBeLessThan(4);
    }
  });
});

describe('instalmentSchedule bounds and junk', () => {
  it('is available from 500 to 40 000 RUB inclusive', () => {
    expect(instalmentSchedule(49_999, TODAY)).toBeNull(); // 499,99
    expect(instalmentSchedule(50_000, TODAY)).toHaveLength(4); // 500
    expect(instalmentSchedule(4_000_000, TODAY)).toHaveLength(4); // 40 000
    expect(instalmentSchedule(4_000_001, TODAY)).toBeNull(); // 40 000,01
    expect(isInstalmentAvailable(50_000)).toBe(true);
    expect(isInstalmentAvailable(4_000_001)).toBe(false);
  });

  it('refuses anything that is not whole kopecks', () => {
    for (const junk of [
      0,
      -2_000_000,
      1_000_000.5,
      50_000.0001,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      Number.MAX_SAFE_INTEGER + 2,
    ]) {
      expect(instalmentSchedule(junk, TODAY)).toBeNull();
    }
    for (const junk of ['2000000', null, undefined, {}, [2_000_000], 2_000_000n]) {
      expect(instalmentSchedule(junk as unknown as number, TODAY)).toBeNull();
    }
  });

  it('refuses an invalid date', () => {
    expect(instalmentSchedule(2_000_000, new Date(Number.NaN))).toBeNull();
    expect(instalmentSchedule(2_000_000, '2026-11-22' as unknown as Date)).toBeNull();
    expect(instalmentSchedule(2_000_000, null as unknown as Date)).toBeNull();
  });

  it('does not change the date it is given', () => {
    const today = new Date(TODAY.getTime());
    instalmentSchedule(2_000_000, today);
    expect(today.getTime()).toBe(TODAY.getTime());
  });
});

describe('instalmentSchedule dates', () => {
  it('starts today and steps 14 days, at local midnight', () => {
    const schedule = instalmentSchedule(2_000_000, TODAY) ?? [];
    expect(schedule.map((p) => formatRussianDate(p.date))).toEqual([
      '22 ноября 2026',
      '6 декабря 2026',
      '20 декабря 2026',
      '3 января 2027',
    ]);
    for (const p of schedule)
      expect([p.date.getHours(), p.date.getMinutes(), p.date.getSeconds(), p.date.getMilliseconds()]).toEqual([
        0, 0, 0, 0,
      ]);
  });

  it('crosses month and year ends and leap days', () => {
    expect(dates(2_000_000, new Date(2026, 0, 31))).toEqual([
      '31 января 2026',
      '14 февраля 2026',
      '28 февраля 2026',
      '14 марта 2026',
    ]);
    expect(dates(2_000_000, new Date(2028, 1, 1))).toEqual([
      '1 февраля 2028',
      '15 февраля 2028',
      '29 февраля 2028',
      '14 марта 2028',
    ]);
    expect(dates(2_000_000, new Date(2026, 11, 31, 23, 59, 59))).toEqual([
      '31 декабря 2026',
      '14 января 2027',
      '28 января 2027',
      '11 февраля 2027',
    ]);
    expect(dates(2_000_000, new Date(2026, 11, 10))).toEqual([
      '10 декабря 2026',
      '24 декабря 2026',
      '7 января 2027',
      '21 января 2027',
    ]);
    // The example of content/pages/dolyami.md: an order on 1 October.
    expect(dates(2_000_000, new Date(2026, 9, 1))).toEqual([
      '1 октября 2026',
      '15 октября 2026',
      '29 октября 2026',
      '12 ноября 2026',
    ]);
  });

  describe('in a time zone with daylight saving', () => {
    const original = process.env.TZ;
    afterEach(() => {
      if (original === undefined) delete process.env.TZ;
      else process.env.TZ = original;
    });

    it('keeps calendar days across the clock change', () => {
      process.env.TZ = 'America/New_York';
      // 2026-03-08 and 2026-11-01 are DST changes in New York; a 14×24 h step would drift an hour.
      expect(dates(2_000_000, new Date(2026, 2, 1, 0, 30))).toEqual([
        '1 марта 2026',
        '15 марта 2026',
        '29 марта 2026',
        '12 апреля 2026',
      ]);
      expect(dates(2_000_000, new Date(2026, 9, 25, 23, 30))).toEqual([
        '25 октября 2026',
        '8 ноября 2026',
        '22 ноября 2026',
        '6 декабря 2026',
      ]);
      const schedule = instalmentSchedule(2_000_000, new Date(2026, 2, 1, 0, 30)) ?? [];
      for (const p of schedule) expect(p.date.getHours()).toBe(0);
    });

    it('uses the local calendar day, not the UTC one', () => {
      process.env.TZ = 'Asia/Vladivostok'; // UTC+10: 07:00 local is still yesterday in UTC
      expect(dates(2_000_000, new Date(2026, 10, 22, 7, 0))[0]).toBe('22 ноября 2026');
      process.env.TZ = 'America/Los_Angeles'; // 22:00 local is already tomorrow in UTC
      expect(dates(2_000_000, new Date(2026, 10, 22, 22, 0))[0]).toBe('22 ноября 2026');
    });
  });
});

describe('formatRussianDate', () => {
  it('writes the day, the month in the genitive and the year', () => {
    expect(formatRussianDate(new Date(2026, 10, 22))).toBe('22 ноября 2026');
    const months = Array.from({ length: 12 }, (_, m) => formatRussianDate(new Date(2026, m, 1)).split(' ')[1]);
    expect(months).toEqual([
      'января',
      'февраля',
      'марта',
      'апреля',
      'мая',
      'июня',
      'июля',
      'августа',
      'сентября',
      'октября',
      'ноября',
      'декабря',
    ]);
    expect(formatRussianDate(new Date(2027, 0, 3, 23, 59))).toBe('3 января 2027');
  });

  it('refuses an invalid date', () => {
    expect(() => formatRussianDate(new Date(Number.NaN))).toThrow(TypeError);
  });
});

describe('instalmentUnavailableReason', () => {
  it('is null inside 500–40 000 ₽, both ends included', () => {
    expect(instalmentUnavailableReason(INSTALMENT_MIN_KOPECKS)).toBeNull();
    expect(instalmentUnavailableReason(INSTALMENT_MAX_KOPECKS)).toBeNull();
    expect(instalmentUnavailableReason(2_000_000)).toBeNull();
  });
  it('says the range and the amount outside it', () => {
    expect(instalmentUnavailableReason(49_999)).toBe(
      'Оплата частями доступна для заказов от 500 до 40 000 ₽, а сумма этого заказа — 499,99\u00a0₽',
    );
    expect(instalmentUnavailableReason(4_000_001)).toMatch(
      /^Оплата частями доступна для заказов от 500 до 40 000 ₽, а сумма этого заказа — 40\u00a0000,01\u00a0₽\. Оплатите картой/,
    );
    expect(instalmentUnavailableReason(Number.NaN)).toBe(INSTALMENT_TEXT.range);
    expect(instalmentUnavailableReason(12.5)).toBe(INSTALMENT_TEXT.range);
  });
  it('isoDay writes the local calendar day', () => {
    expect(isoDay(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
    const schedule = instalmentSchedule(2_000_000, new Date(2026, 9, 1, 15, 0));
    expect(schedule?.map((p) => isoDay(p.date))).toEqual(['2026-10-01', '2026-10-15', '2026-10-29', '2026-11-12']);
  });
});
