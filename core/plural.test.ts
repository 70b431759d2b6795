import { describe, expect, it } from 'vitest';
import { pluralRu } from './plural';

describe('pluralRu', () => {
  it('picks one, few or many', () => {
    const f = (n: number) => pluralRu(n, 'день', 'дня', 'дней');
    expect([0, 1, 2, 4, 5, 11, 12, 14, 19, 21, 22, 25, 101, 111, 112].map(f)).toEqual([
      'дней',
      'день',
      'дня',
      'дня',
      'дней',
      'дней',
      'дней',
      'дней',
      'дней',
      'день',
      'дня',
      'дней',
      'день',
      'дней',
      'дней',
    ]);
  });
});
