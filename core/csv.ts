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

// --- Reading (the back office's imports) -----------------------------------------------------------

export interface CsvRow {
  /** The file's line number where the row starts (1 is the heading), as a spreadsheet counts it. */
  line: number;
  fields: string[];
}

/**
 * Which separator a file uses: the one of `;` and `,` that occurs more often outside quotes in its
 * first line (the heading). Excel in a Russian locale writes `;`; most other tools write `,`.
 */
export function detectCsvSeparator(text: string): ';' | ',' {
  let semicolons = 0;
  let commas = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) break;
    else if (!quoted && c === ';') semicolons++;
    else if (!quoted && c === ',') commas++;
  }
  return commas > semicolons ? ',' : ';';
}

/** A field as it was typed: the apostrophe csvField put before a formula-like text taken off again. */
export function csvUnguard(field: string): string {
  return /^'[=+\-@\t\r]/.test(field) ? field.slice(1) : field;
}

/**
 * The rows of a CSV text (RFC 4180: quoted fields may hold the separator, doubled quotes and line
 * breaks; lines end with CRLF or LF), with the byte order mark dropped and the separator detected.
 * Empty lines are skipped; each row keeps the line it starts on, for errors staff can find.
 */
export function parseCsv(input: string): { separator: ';' | ','; rows: CsvRow[]; bom: boolean } {
  const bom = input.startsWith(CSV_BOM);
  const text = bom ? input.slice(1) : input;
  const separator = detectCsvSeparator(text);
  const rows: CsvRow[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let rowLine = 1;
  let quoted = false;
  const endField = () => {
    // The apostrophe csvField puts before a formula-like text is taken off again.
    fields.push(csvUnguard(field));
    field = '';
  };
  const endRow = () => {
    endField();
    if (fields.length > 1 || fields[0] !== '') rows.push({ line: rowLine, fields });
    fields = [];
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === '\n') line++;
        field += c;
      }
    } else if (c === '"' && field === '') {
      quoted = true;
    } else if (c === separator) endField();
    else if (c === '\r' || c === '\n') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRow();
      line++;
      rowLine = line;
    } else field += c;
  }
  if (field !== '' || fields.length > 0) endRow();
  return { separator, rows, bom };
}
