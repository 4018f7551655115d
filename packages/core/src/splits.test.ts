import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { clampSplit, setSplit } from './splits';

const keysOf = (n: number) => Array.from({ length: n }, (_, i) => `v${i}`);
const values = (splits: { split: number }[]) => splits.map((s) => s.split);

/** Splits of 2 to 8 variants that add up to 100, as the editor holds them. */
const splitsArb = fc.array(fc.nat({ max: 1000 }), { minLength: 2, maxLength: 8 }).map((weights) => {
  const total = weights.reduce((sum, w) => sum + w, 0);
  const shares = weights.map((w) => (total === 0 ? 0 : Math.floor((w * 100) / total)));
  shares[0]! += 100 - shares.reduce((sum, s) => sum + s, 0);
  return shares.map((split, i) => ({ variantKey: `v${i}`, split }));
});

/** An edit: the splits, the variant edited, what was typed, and the variants set before (oldest first). */
const editArb = splitsArb.chain((splits) =>
  fc.record({
    splits: fc.constant(splits),
    index: fc.nat({ max: splits.length - 1 }),
    value: fc.oneof(fc.integer({ min: -200, max: 300 }), fc.double({ min: -500, max: 500, noNaN: true })),
    userSet: fc.uniqueArray(fc.constantFrom(...keysOf(splits.length)), { maxLength: splits.length }),
  }),
);

describe('setSplit', () => {
  it('always adds up to 100, every share a whole number in 0..100, in the same order', () => {
    fc.assert(
      fc.property(editArb, ({ splits, index, value, userSet }) => {
        const result = setSplit(splits, index, value, userSet);
        expect(result.reduce((sum, s) => sum + s.split, 0)).toBe(100);
        for (const { split } of result) {
          expect(Number.isInteger(split)).toBe(true);
          expect(split).toBeGreaterThanOrEqual(0);
          expect(split).toBeLessThanOrEqual(100);
        }
        expect(result.map((s) => s.variantKey)).toEqual(splits.map((s) => s.variantKey));
      }),
    );
  });

  it('gives the edited variant what was typed, clamped to 0..100', () => {
    fc.assert(
      fc.property(editArb, ({ splits, index, value, userSet }) => {
        expect(setSplit(splits, index, value, userSet)[index]!.split).toBe(clampSplit(value));
      }),
    );
  });

  it('keeps every share the user set when the variants they did not set can make up the rest', () => {
    fc.assert(
      fc.property(editArb, ({ splits, index, value, userSet }) => {
        const edited = splits[index]!.variantKey;
        const set = userSet.filter((key) => key !== edited);
        const unset = splits.filter((s) => s.variantKey !== edited && !set.includes(s.variantKey));
        const setTotal = splits
          .filter((s) => set.includes(s.variantKey))
          .reduce((sum, s) => sum + s.split, 0);
        fc.pre(unset.length > 0 && clampSplit(value) + setTotal <= 100);
        const result = setSplit(splits, index, value, userSet);
        for (const key of set) {
          expect(result.find((s) => s.variantKey === key)!.split).toBe(
            splits.find((s) => s.variantKey === key)!.split,
          );
        }
      }),
    );
  });

  it('changes a share the user set only when it and those set after it leave no room', () => {
    fc.assert(
      fc.property(editArb, ({ splits, index, value, userSet }) => {
        const edited = splits[index]!.variantKey;
        const set = userSet.filter((key) => key !== edited);
        const before = (key: string) => splits.find((s) => s.variantKey === key)!.split;
        const result = setSplit(splits, index, value, userSet);
        set.forEach((key, at) => {
          if (result.find((s) => s.variantKey === key)!.split === before(key)) return;
          const later = set.slice(at);
          const laterTotal = later.reduce((sum, k) => sum + before(k), 0);
          const unset = splits.filter((s) => s.variantKey !== edited && !later.includes(s.variantKey));
          expect(unset.length === 0 || clampSplit(value) + laterTotal > 100).toBe(true);
        });
      }),
    );
  });

  it('clamps 150 to 100 and -5 to 0', () => {
    const two = [
      { variantKey: 'on', split: 50 },
      { variantKey: 'off', split: 50 },
    ];
    expect(values(setSplit(two, 0, 150))).toEqual([100, 0]);
    expect(values(setSplit(two, 0, -5))).toEqual([0, 100]);
    expect(values(setSplit(two, 1, 33.6))).toEqual([66, 34]);
  });

  it('with three variants, setting the second keeps the first the user set and rebalances the third', () => {
    const three = [
      { variantKey: 'red', split: 34 },
      { variantKey: 'green', split: 33 },
      { variantKey: 'blue', split: 33 },
    ];
    const first = setSplit(three, 0, 20);
    expect(values(first)).toEqual([20, 40, 40]);
    expect(values(setSplit(first, 1, 60, ['red']))).toEqual([20, 60, 20]);
    // Without it, the first share would be rebalanced too.
    expect(values(setSplit(first, 1, 60))).toEqual([13, 60, 27]);
  });

  it('lets the share set longest ago give way when every other share was set', () => {
    const three = [
      { variantKey: 'red', split: 20 },
      { variantKey: 'green', split: 60 },
      { variantKey: 'blue', split: 20 },
    ];
    expect(values(setSplit(three, 2, 30, ['red', 'green']))).toEqual([10, 60, 30]);
    expect(values(setSplit(three, 2, 50, ['red', 'green']))).toEqual([13, 37, 50]);
    const two = [
      { variantKey: 'on', split: 30 },
      { variantKey: 'off', split: 70 },
    ];
    expect(values(setSplit(two, 1, 50, ['on']))).toEqual([50, 50]);
  });

  it('shares evenly among variants at 0 and gives a single variant everything', () => {
    const zeros = [
      { variantKey: 'a', split: 100 },
      { variantKey: 'b', split: 0 },
      { variantKey: 'c', split: 0 },
    ];
    expect(values(setSplit(zeros, 0, 40))).toEqual([40, 30, 30]);
    expect(values(setSplit([{ variantKey: 'a', split: 30 }], 0, 30))).toEqual([100]);
    expect(setSplit([], 0, 30)).toEqual([]);
  });
});
