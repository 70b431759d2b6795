// SPEC §9: dates in Russian long format ('22 ноября 2026'), one formatter for the whole shop.

const MONTHS_GENITIVE = [
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
] as const;

/**
 * A Date is read in the local calendar (a schedule computed in the browser shows the shopper's
 * days); a 'YYYY-MM-DD' string is a calendar day as written, with no time zone to shift it.
 */
export function formatRussianDate(date: Date | string): string {
  if (typeof date === 'string') {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
    const month = m ? Number(m[2]) : 0;
    if (!m || month < 1 || month > 12) throw new TypeError(`Not a calendar date: ${date}`);
    return `${Number(m[3])} ${MONTHS_GENITIVE[month - 1]} ${m[1]}`;
  }
  if (!(date instanceof Date) || Number.isNaN(date.getTime())) throw new TypeError(`Not a date: ${String(date)}`);
  return `${date.getDate()} ${MONTHS_GENITIVE[date.getMonth()]} ${date.getFullYear()}`;
}

/** '25 ноября 2026', or '26 ноября – 3 декабря 2026' (the year once when both share it); null when unknown. */
export function datesText(from: string | null | undefined, to: string | null | undefined): string | null {
  if (!from && !to) return null;
  try {
    if (!from || !to || from === to) return formatRussianDate((from ?? to) as string);
    const first = formatRussianDate(from);
    const last = formatRussianDate(to);
    return from.slice(0, 4) === to.slice(0, 4) ? `${first.replace(/ \d{4}$/, '')} – ${last}` : `${first} – ${last}`;
  } catch {
    // A date the API should never send: no estimate rather than a broken form.
    return null;
  }
}
