import { describe, expect, it } from 'vitest';
import { formatRub, kopecksToRoubles, parseRoublesToKopecks } from './money';

describe('formatRub', () => {
  it('groups thousands with a no-break space and drops zero kopecks', () => {
    expect(formatRub(3_200_000)).toBe('32\u00a0000\u00a0₽');
    expect(formatRub(70_000)).toBe('700\u00a0₽');
    expect(formatRub(1_234_550)).toBe('12\u00a0345,50\u00a0₽');
    expect(formatRub(0)).toBe('0\u00a0₽');
  });
  it('refuses fractions of a kopeck', () => {
    expect(() => formatRub(1.5)).toThrow();
  });
});

describe('parseRoublesToKopecks', () => {
  it('parses exactly, without float drift', () => {
    expect(parseRoublesToKopecks('0.1')).toBe(10);
    expect(parseRoublesToKopecks('12 345,5')).toBe(1_234_550);
    expect(parseRoublesToKopecks(19.99)).toBe(1999);
    expect(parseRoublesToKopecks('40 000')).toBe(4_000_000);
  });
  it('rejects junk', () => {
    for (const junk of ['', 'abc', '1.234', '1e5', '12,3,4', 'NaN']) expect(parseRoublesToKopecks(junk)).toBeNull();
  });
  it('round-trips through the contract number', () => {
    for (const k of [1, 10, 99, 1999, 3_200_000, 4_999_999]) expect(parseRoublesToKopecks(kopecksToRoubles(k))).toBe(k);
  });
});

describe('one rouble formatter', () => {
  it('is formatRub: no other source file groups digits and writes ₽ itself', async () => {
    const fs = await import('node:fs');
    const path = await import('node:path');
    const root = path.resolve(import.meta.dirname, '..');
    const offenders: string[] = [];
    for (const folder of ['app', 'core', 'shared', 'api', 'models', 'integrations', 'server', 'content']) {
      for (const file of fs.readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })) {
        if (!/\.tsx?$/.test(file) || /\.test\.tsx?$/.test(file)) continue;
        const rel = path.join(folder, file);
        // Code only: a comment may quote a price.
        const text = fs.readFileSync(path.join(root, rel), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
        if (rel !== path.join('core', 'money.ts') && text.includes('(?=(\\d{3})+(?!\\d))') && text.includes('₽'))
          offenders.push(rel);
      }
    }
    expect(offenders).toEqual([]);
  });
});
