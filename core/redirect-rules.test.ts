import { describe, expect, it } from 'vitest';
import { checkRedirectFrom, checkRedirectTo, findRedirectLoop, parseRedirectLines } from './redirect-rules';

describe('redirect rules', () => {
  it('takes a page path of this shop as the old address, in canonical form', () => {
    expect(checkRedirectFrom('/Sale')).toEqual({ ok: true, value: '/sale/' });
    expect(checkRedirectFrom('sale').ok).toBe(false);
    expect(checkRedirectFrom('https://x.ru/a/').ok).toBe(false);
    expect(checkRedirectFrom('//evil.com/').ok).toBe(false);
    expect(checkRedirectFrom('/a b/').ok).toBe(false);
    expect(checkRedirectFrom('/a/?x=1').ok).toBe(false);
    expect(checkRedirectFrom('/').ok).toBe(false);
    expect(checkRedirectFrom('/backend/catalog/').ok).toBe(false);
    expect(checkRedirectFrom('/admin/orders').ok).toBe(false);
    expect(checkRedirectFrom('/media/a.jpg').ok).toBe(false);
  });

  it('takes a path or an http(s) address as the new one', () => {
    expect(checkRedirectTo('/catalog/promo/?utm=1')).toEqual({ ok: true, value: '/catalog/promo/?utm=1' });
    expect(checkRedirectTo('https://t.me/vitrina_brand').ok).toBe(true);
    for (const bad of ['', 'javascript:alert(1)', '//evil.com', 'https://', 'http://localhost', 'catalog/', '/a b/'])
      expect(checkRedirectTo(bad).ok, bad).toBe(false);
  });

  it('finds a loop through a chain, and only one through the new redirect', () => {
    const table = new Map([
      ['/b/', '/c/'],
      ['/c/', '/a/?from=c'],
      ['/x/', '/y/'],
      ['/y/', '/x/'],
    ]);
    const lookup = (p: string) => table.get(p);
    expect(findRedirectLoop('/a/', '/b/', lookup)).toEqual(['/a/', '/b/', '/c/', '/a/']);
    expect(findRedirectLoop('/a/', '/A', lookup)).toEqual(['/a/', '/a/']);
    expect(findRedirectLoop('/q/', '/x/', lookup)).toBeNull();
    expect(findRedirectLoop('/a/', 'https://t.me/a/', lookup)).toBeNull();
    expect(findRedirectLoop('/n/', '/m/', lookup)).toBeNull();
  });

  it('reads pasted lines and CSV (; , or tab), skipping a header and blank lines, with errors per line', () => {
    const { lines, errors } = parseRedirectLines('\uFEFFold;new;code\r\n/a/;/b/\n\n/c/,/d/,302\n/e/\t/f/\tx\n/g/\n');
    expect(lines).toEqual([
      { line: 2, from: '/a/', to: '/b/', status: 301 },
      { line: 4, from: '/c/', to: '/d/', status: 302 },
    ]);
    expect(errors.map((e) => e.line)).toEqual([5, 6]);
  });
});
