import { describe, expect, it } from 'vitest';
import { redactUrl } from './log-redaction';

describe('redactUrl', () => {
  it('hides names, phones and keys, keeps the rest', () => {
    expect(
      redactUrl('/backend/api/catalog/fastorder.php?id=5&name=%D0%90%D0%BD%D0%BD%D0%B0&phone=%2B79991234567&key=abc'),
    ).toBe('/backend/api/catalog/fastorder.php?id=5&name=***&phone=***&key=***');
    expect(redactUrl('/catalog/?sort=new&PAGEN_1=2')).toBe('/catalog/?sort=new&PAGEN_1=2');
    expect(redactUrl('/x?Phone=1&%ZZ=2')).toBe('/x?Phone=***&%ZZ=2');
    expect(redactUrl('/no-query')).toBe('/no-query');
  });
});
