import { describe, expect, it } from 'vitest';
import { CSV_BOM, csvField, csvLine } from './csv';

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
