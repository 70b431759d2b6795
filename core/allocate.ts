// Splitting a whole number of kopecks over several weights (a promo discount over basket lines,
// a payment over receipt items) so the parts add up exactly: rounding each share on its own
// loses or invents kopecks. Largest-remainder (Hamilton) method with BigInt arithmetic, so
// total × weight never loses precision even for amounts far above 2^53 / weight.

/**
 * Integer parts of `total` proportional to `weights`: every part is floor(total × w / Σw) and
 * the kopecks still missing go, one each, to the largest remainders; equal remainders go to the
 * earlier index, so the result is deterministic. The parts always sum to `total`, and while
 * total ≤ Σw no part exceeds its weight (a discount never exceeds its line).
 *
 * Throws on a negative or fractional total or weight, and when a positive total has nothing to
 * go to (all weights zero): silently dropping money is the bug this function exists to prevent.
 */
export function allocateProportionally(total: number, weights: readonly number[]): number[] {
  assertWhole(total, 'total');
  for (const w of weights) assertWhole(w, 'weight');
  const weightSum = weights.reduce((sum, w) => sum + BigInt(w), 0n);
  if (weightSum === 0n) {
    if (total !== 0) throw new RangeError(`Cannot allocate ${total} over zero weights`);
    return weights.map(() => 0);
  }

  const t = BigInt(total);
  const parts: number[] = [];
  const remainders: bigint[] = [];
  let allocated = 0n;
  for (const w of weights) {
    const product = t * BigInt(w);
    const part = product / weightSum;
    parts.push(Number(part));
    remainders.push(product % weightSum);
    allocated += part;
  }

  // Fewer than weights.length kopecks are left over (each share lost less than one).
  let left = Number(t - allocated);
  const order = remainders
    .map((remainder, index) => ({ remainder, index }))
    .sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  for (const { index } of order) {
    if (left === 0) break;
    parts[index] = (parts[index] ?? 0) + 1;
    left -= 1;
  }
  return parts;
}

function assertWhole(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`Allocation ${what} must be a whole non-negative number, got ${value}`);
  }
}
