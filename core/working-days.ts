// Working-day arithmetic for delivery promises (content/pages/delivery.md, shipment.md:
// «Выходные и праздничные дни в срок отправки не входят»). Calendar days are 'YYYY-MM-DD'
// strings in Moscow time, so a date never shifts with the server's or the browser's zone.
//
// Holidays are the fixed non-working days of the Labour Code (art. 112). Not modelled: the
// government's yearly transfers of days off (a weekend day moved to a weekday, a Saturday made
// working) and the carry-over of a holiday that falls on a weekend. Enter those per year in
// EXTRA_HOLIDAYS / EXTRA_WORKING_DAYS from the published production calendar.

/** Moscow is UTC+3 all year (no daylight saving since 2014). */
export const MOSCOW_UTC_OFFSET_MINUTES = 180;

const DAY_MS = 86_400_000;

/** Fixed public holidays as 'MM-DD'. */
export const FIXED_HOLIDAYS: ReadonlySet<string> = new Set([
  '01-01',
  '01-02',
  '01-03',
  '01-04',
  '01-05',
  '01-06',
  '01-07',
  '01-08',
  '02-23',
  '03-08',
  '05-01',
  '05-09',
  '06-12',
  '11-04',
]);

/** Extra days off of a given year ('YYYY-MM-DD'): transfers and carry-overs from the production calendar. */
export const EXTRA_HOLIDAYS: ReadonlySet<string> = new Set<string>([]);

/** Weekend days made working by a transfer ('YYYY-MM-DD'); they win over a weekend, never over EXTRA_HOLIDAYS. */
export const EXTRA_WORKING_DAYS: ReadonlySet<string> = new Set<string>([]);

/** Milliseconds of UTC midnight of a 'YYYY-MM-DD' day; throws on anything that is not a real calendar day. */
function dayToUtcMs(date: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) throw new TypeError(`Not a calendar date: ${date}`);
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const ms = Date.UTC(year, month - 1, day);
  const back = new Date(ms);
  // Date.UTC rolls 2026-02-30 over to March: refuse it instead of guessing.
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) {
    throw new TypeError(`Not a calendar date: ${date}`);
  }
  return ms;
}

function utcMsToDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The Moscow calendar date of an instant and the minutes since Moscow midnight (0–1439). */
export function moscowNow(now: Date): { date: string; minutes: number } {
  const ms = now.getTime();
  if (Number.isNaN(ms)) throw new TypeError('Not a date');
  const shifted = new Date(ms + MOSCOW_UTC_OFFSET_MINUTES * 60_000);
  return { date: utcMsToDay(shifted.getTime()), minutes: shifted.getUTCHours() * 60 + shifted.getUTCMinutes() };
}

/** Not a Saturday or Sunday and not a public holiday (see the module note on transfers). */
export function isWorkingDay(date: string): boolean {
  const ms = dayToUtcMs(date);
  if (EXTRA_HOLIDAYS.has(date)) return false;
  if (EXTRA_WORKING_DAYS.has(date)) return true;
  if (FIXED_HOLIDAYS.has(date.slice(5))) return false;
  const weekday = new Date(ms).getUTCDay();
  return weekday !== 0 && weekday !== 6;
}

export function addCalendarDays(date: string, n: number): string {
  if (!Number.isInteger(n)) throw new RangeError(`Whole days only, got ${n}`);
  return utcMsToDay(dayToUtcMs(date) + n * DAY_MS);
}

/** The first working day strictly after `date`. */
export function nextWorkingDay(date: string): string {
  let day = addCalendarDays(date, 1);
  // The longest run of days off is the New Year break (Dec 31 weekend + Jan 1–8 + weekend): well under 30.
  for (let i = 0; i < 366 && !isWorkingDay(day); i++) day = addCalendarDays(day, 1);
  return day;
}

/** `n` working days after `date`; 0 gives `date` itself when it is a working day, else the next working day. */
export function addWorkingDays(date: string, n: number): string {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`Working days must be a whole number >= 0, got ${n}`);
  if (n === 0) return isWorkingDay(date) ? date : nextWorkingDay(date);
  let day = date;
  for (let i = 0; i < n; i++) day = nextWorkingDay(day);
  return day;
}
