import { describe, expect, it } from 'vitest';
import { CSV_BOM, csvField, csvLine, csvUnguard, detectCsvSeparator, parseCsv } from './csv';

describe('csv', () => {
  it('quotes a field with the separator, a quote or a line break, and only then', () => {
    expect(csvField('Анна')).toBe('Анна');
    expect(csvField('a;b')).toBe('"a;b"');
    expect(csvField('a,b')).toBe('a,b');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\rhere')).toBe('"cr\rhere"');
  });

  it('keeps a formula a text (CSV injection)', () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvField('+7 999')).toBe("'+7 999");
    expect(csvField('-1')).toBe("'-1");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\tx')).toBe("'\tx");
    // Numbers are numbers: a negative number is no formula.
    expect(csvField(-1)).toBe('-1');
  });

  it('writes empty for null, да/нет for booleans, and lines ending with CRLF', () => {
    expect(csvLine([1, null, 'x', true, false, undefined])).toBe('1;;x;да;нет;\r\n');
    expect(CSV_BOM).toBe('\uFEFF');
  });
});

describe('reading csv', () => {
  it('drops the byte order mark, detects ; or , from the heading, keeps line numbers of quoted line breaks', () => {
    const excel = parseCsv(`${CSV_BOM}a;b;c\r\n1;"x;y";"two\nlines"\r\n\r\n2;"say ""hi""";'=SUM(A1)\r\n`);
    expect(excel.bom).toBe(true);
    expect(excel.separator).toBe(';');
    expect(excel.rows).toEqual([
      { line: 1, fields: ['a', 'b', 'c'] },
      { line: 2, fields: ['1', 'x;y', 'two\nlines'] },
      { line: 5, fields: ['2', 'say "hi"', '=SUM(A1)'] },
    ]);
    const plain = parseCsv('a,"b, ₽",c\n1,"12,5",3');
    expect(plain.separator).toBe(',');
    expect(plain.bom).toBe(false);
    expect(plain.rows[1]?.fields).toEqual(['1', '12,5', '3']);
  });

  it('reads back what it writes, formula guard included', () => {
    const values = ['=HYPERLINK("x")', '-1', 'a;b', 'plain', ''];
    for (const sep of [';', ','] as const)
      expect(parseCsv(csvLine(['h1', 'h2', 'h3', 'h4', 'h5'], sep) + csvLine(values, sep)).rows[1]?.fields).toEqual(
        values,
      );
    expect(csvUnguard("'+7 999")).toBe('+7 999');
    expect(csvUnguard("it's")).toBe("it's");
    expect(detectCsvSeparator('"a;b",c,d')).toBe(',');
  });
});
