import { expect, it } from 'vitest';
import { parseNestedForm } from './form';

it('parses flat and nested keys', () => {
  const f = parseNestedForm('token=abc&change[firstname]=%D0%90%D0%BD%D0%BD%D0%B0&params[token]=t');
  expect(f.token).toBe('abc');
  expect(f.change).toEqual({ firstname: 'Анна' });
  expect(f.params).toEqual({ token: 't' });
});

it('refuses prototype keys and absurd depth', () => {
  const f = parseNestedForm('__proto__[x]=1&a[constructor][y]=2&a[b][c][d][e][f][g]=3&ok=1');
  expect(Object.keys(f)).toEqual(['ok']);
  expect(({} as Record<string, unknown>).x).toBeUndefined();
});

it('keeps the last value of a repeated key', () => {
  expect(parseNestedForm('a=1&a=2').a).toBe('2');
});
