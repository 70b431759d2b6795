import { describe, expect, it } from 'vitest';
import { deepFreeze } from './deep-freeze';

describe('deepFreeze', () => {
  it('freezes objects and arrays at every depth and returns the same value', () => {
    const answer = JSON.parse(
      '{"ITEMS":[{"ID":1,"PRICE":{"BASE":9900}},{"ID":2,"PRICE":{"BASE":500}}],"NAME":"Пальто","EMPTY":null}',
    ) as {
      ITEMS: Array<{ ID: number; PRICE: { BASE: number } }>;
      NAME: string;
    };
    expect(deepFreeze(answer)).toBe(answer);
    expect(Object.isFrozen(answer)).toBe(true);
    expect(Object.isFrozen(answer.ITEMS)).toBe(true);
    expect(Object.isFrozen(answer.ITEMS[0])).toBe(true);
    expect(Object.isFrozen(answer.ITEMS[0]?.PRICE)).toBe(true);
    // Strict code (every module) throws on a change instead of passing it to other readers.
    expect(() => {
      answer.ITEMS.push({ ID: 3, PRICE: { BASE: 1 } });
    }).toThrow(TypeError);
    expect(() => {
      answer.ITEMS[0]!.PRICE.BASE = 1;
    }).toThrow(TypeError);
    expect(() => {
      answer.ITEMS.sort((a, b) => b.ID - a.ID);
    }).toThrow(TypeError);
    expect(answer.ITEMS[0]?.PRICE.BASE).toBe(9900);
  });

  it('passes primitives and null through', () => {
    expect(deepFreeze(null)).toBeNull();
    expect(deepFreeze(5)).toBe(5);
    expect(deepFreeze('x')).toBe('x');
  });
});
