import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeParts, TARGETING_PARTS, type TargetingPart } from './concurrent-edits';

type Parts = Record<TargetingPart, number>;
const parts = fc.record({
  enabled: fc.integer({ min: 0, max: 2 }),
  offVariantKey: fc.integer({ min: 0, max: 2 }),
  rules: fc.integer({ min: 0, max: 2 }),
  fallback: fc.integer({ min: 0, max: 2 }),
}) as fc.Arbitrary<Parts>;
const same = (_part: TargetingPart, a: unknown, b: unknown) => a === b;

describe('mergeParts', () => {
  it('takes what was saved since when the edit changed nothing, and keeps the edit when nothing was saved', () => {
    fc.assert(
      fc.property(parts, parts, (base, other) => {
        expect(mergeParts(base, base, other, same)).toEqual({ merged: other, conflicts: [] });
        expect(mergeParts(base, other, base, same)).toEqual({ merged: other, conflicts: [] });
      }),
    );
  });

  it('merges part by part: each part is one side’s, and a conflict only where both changed it differently', () => {
    fc.assert(
      fc.property(parts, parts, parts, (base, mine, theirs) => {
        const { merged, conflicts } = mergeParts(base, mine, theirs, same);
        for (const part of TARGETING_PARTS) {
          const both =
            mine[part] !== base[part] && theirs[part] !== base[part] && mine[part] !== theirs[part];
          expect(conflicts.includes(part)).toBe(both);
          // A conflict keeps the edit until the user chooses; otherwise whichever side changed it.
          expect(merged[part]).toBe(both || theirs[part] === base[part] ? mine[part] : theirs[part]);
        }
      }),
    );
  });

  it('follows a switch saved elsewhere while the rules are being edited', () => {
    const base = { enabled: false, offVariantKey: 'off', rules: 'none', fallback: 'on' };
    const mine = { ...base, rules: 'country is AU' };
    const theirs = { ...base, enabled: true };
    expect(mergeParts(base, mine, theirs, same)).toEqual({
      merged: { ...mine, enabled: true },
      conflicts: [],
    });
  });
});
