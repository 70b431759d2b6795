// CSV for spreadsheets (the back office's exports): Excel in a Russian locale opens a file by
// double click when it starts with the UTF-8 byte order mark and separates fields with `;` (its
// list separator there). A field is quoted when it holds the separator, a quote or a line break
// (quotes doubled, RFC 4180). A text that a spreadsheet would take for a formula (it starts with
// =, +, -, @, a tab or a carriage return: OWASP's "CSV injection") gets a leading apostrophe, so
// a customer named `=HYPERLINK(…)` stays text.

export const CSV_BOM = '\uFEFF';
export const CSV_SEPARATOR = ';';

/** A value as a field: numbers as they are, null as empty, text guarded and quoted when needed. */
export function csvField(value: string | number | boolean | null | undefined, separator = CSV_SEPARATOR): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'да' : 'нет';
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return text.includes(separator) || /["\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One line, ending with CRLF (what spreadsheets and RFC 4180 expect). */
export function csvLine(
  values: readonly (string | number | boolean | null | undefined)[],
  separator = CSV_SEPARATOR,
): string {
  return `${values.map((v) => csvField(v, separator)).join(separator)}\r\n`;
}
