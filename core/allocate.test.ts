import { describe, expect, it } from 'vitest';
import { allocateProportionally } from './allocate';

const sum = (parts: number[]): number => parts.reduce((a, b) => a + b, 0);

describe('allocateProportionally', () => {
  it('splits exactly when shares are whole', () => {
    expect(allocateProportionally(100, [1, 1, 2])).toEqual([25, 25, 50]);
    expect(allocateProportionally(0, [5, 7])).toEqual([0, 0]);
  });

  it('gives the leftover kopecks to the largest remainders', () => {
    // 10 × [1,2,3]/6 = 1.67, 3.33, 5 → floors 1, 3, 5 (9); the one left goes to 1.67.
    expect(allocateProportionally(10, [1, 2, 3])).toEqual([2, 3, 5]);
    // 100 × [1,1,1]/3 = 33.33 each → ties go to the earliest index.
    expect(allocateProportionally(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(allocateProportionally(2, [1, 1, 1])).toEqual([1, 1, 0]);
  });

  it('breaks equal remainders by order given, not by size', () => {
    // 5 × [3,1]/4 = 3.75, 1.25 → 3, 1 and the leftover to the larger remainder (index 0).
    expect(allocateProportionally(5, [3, 1])).toEqual([4, 1]);
    // 1 × [1,3]/4 = 0.25, 0.75 → the larger remainder is the later line.
    expect(allocateProportionally(1, [1, 3])).toEqual([0, 1]);
    // Equal remainders 0.5 and 0.5 → earlier wins.
    expect(allocateProportionally(1, [2, 2])).toEqual([1, 0]);
  });

  it('always sums to the total and never exceeds a weight while total ≤ Σweights', () => {
    const weights = [123_400, 99, 1, 3_200_000, 777, 0, 4_567];
    const weightSum = sum(weights);
    for (const total of [0, 1, 7, 999, 12_345, 100_000, 3_000_001, weightSum - 1, weightSum]) {
      const parts = allocateProportionally(total, weights);
      expect(sum(parts)).toBe(total);
      parts.forEach((p, i) => {
        expect(Number.isInteger(p)).toBe(true);
        expect(p).toBeGreaterThanOrEqual(0);
        expect(p).toBeLessThanOrEqual(weights[i] ?? 0);
      });
    }
  });

  it('gives nothing to zero weights', () => {
    expect(allocateProportionally(10, [0, 5, 0, 5])).toEqual([0, 5, 0, 5]);
    expect(allocateProportionally(3, [0, 1, 0])).toEqual([0, 3, 0]);
  });

  it('may exceed weights when asked for more than their sum', () => {
    expect(allocateProportionally(10, [1, 1])).toEqual([5, 5]);
  });

  it('stays exact where total × weight is beyond 2^53', () => {
    const big = 4_000_000_000_000; // 40 bn roubles in kopecks
    const parts = allocateProportionally(big - 1, [big, big, big]);
    expect(parts).toEqual([1_333_333_333_333, 1_333_333_333_333, 1_333_333_333_333]);
    expect(sum(parts)).toBe(big - 1);
    // Float shares (total × w / Σw in doubles) give [6_258_418_958_874, 2_056_032, 714_671] here:
    // the rounded product moves a kopeck from the first line to the second.
    const exact = allocateProportionally(6_258_421_729_577, [1_979_840_074_660, 650_422, 226_085]);
    expect(exact).toEqual([6_258_418_958_875, 2_056_031, 714_671]);
    expect(sum(exact)).toBe(6_258_421_729_577);
  });

  it('handles an empty list and a single weight', () => {
    expect(allocateProportionally(0, [])).toEqual([]);
    expect(allocateProportionally(42, [7])).toEqual([42]);
  });

  it('refuses to lose money or take fractions', () => {
    expect(() => allocateProportionally(5, [])).toThrow(RangeError);
    expect(() => allocateProportionally(5, [0, 0])).toThrow(RangeError);
    expect(() => allocateProportionally(-1, [1])).toThrow(RangeError);
    expect(() => allocateProportionally(1.5, [1])).toThrow(RangeError);
    expect(() => allocateProportionally(1, [1, -1])).toThrow(RangeError);
    expect(() => allocateProportionally(1, [Number.NaN])).toThrow(RangeError);
    expect(() => allocateProportionally(Number.MAX_SAFE_INTEGER + 1, [1])).toThrow(RangeError);
  });

  it('does not mutate the weights', () => {
    const weights = [3, 1, 2];
    allocateProportionally(5, weights);
    expect(weights).toEqual([3, 1, 2]);
  });
});
