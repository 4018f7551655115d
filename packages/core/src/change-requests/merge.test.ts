import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Rule } from '../schemas/targeting';
import type { ControlSnapshot } from '../schemas/versions';
import { sameJson } from '../versions/same-json';
import { mergeControl, mergeFields } from './merge';

/*
 * The conflict rule over random controls: small pools make equal and one-edit-apart parts common, so
 * that merges without conflicts and true conflicts both come up often.
 */

const rule = (country: string, on: number, defaultRule = false): Rule => ({
  defaultRule,
  audience: defaultRule
    ? null
    : { conditions: [{ target: 'country', operator: 'equals', values: [country] }] },
  variantSplits: [
    { variantKey: 'on', split: on },
    { variantKey: 'off', split: 100 - on },
  ],
});

const RULES = [
  rule('NZ', 100),
  rule('NZ', 50),
  rule('AU', 100),
  rule('FR', 20),
  rule('', 0, true),
  rule('', 100, true),
];

const controlArb: fc.Arbitrary<ControlSnapshot> = fc.record({
  enabled: fc.boolean(),
  offVariantKey: fc.constantFrom('off', 'on'),
  rules: fc.array(fc.constantFrom(...RULES), { maxLength: 3 }),
});

/** A control one or two edits away from `base`: a part flipped, a rule replaced, added or removed. */
function editedArb(base: ControlSnapshot): fc.Arbitrary<ControlSnapshot> {
  const edit: fc.Arbitrary<(c: ControlSnapshot) => ControlSnapshot> = fc.oneof(
    fc.constant((c: ControlSnapshot) => ({ ...c, enabled: !c.enabled })),
    fc.constant((c: ControlSnapshot) => ({ ...c, offVariantKey: c.offVariantKey === 'off' ? 'on' : 'off' })),
    fc.tuple(fc.nat(), fc.constantFrom(...RULES)).map(
      ([at, r]) =>
        (c: ControlSnapshot) =>
          c.rules.length === 0
            ? c
            : { ...c, rules: c.rules.map((x, i) => (i === at % c.rules.length ? r : x)) },
    ),
    fc.constantFrom(...RULES).map((r) => (c: ControlSnapshot) => ({ ...c, rules: [r, ...c.rules] })),
    fc.constant((c: ControlSnapshot) => ({ ...c, rules: c.rules.slice(1) })),
  );
  return fc.array(edit, { minLength: 1, maxLength: 2 }).map((edits) => edits.reduce((c, e) => e(c), base));
}

const tripleArb = controlArb.chain((base) =>
  fc.tuple(fc.constant(base), fc.oneof(editedArb(base), controlArb), fc.oneof(editedArb(base), controlArb)),
);

/** The parts of a control as the merge sees them. */
function parts(base: ControlSnapshot, c: ControlSnapshot, lined: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { enabled: c.enabled, offVariantKey: c.offVariantKey };
  if (lined) c.rules.forEach((r, i) => (out[`rules/${i}`] = r));
  else out.rules = c.rules;
  return out;
}

describe('merging a change into a control that moved on', () => {
  it('takes the request when nothing moved, the live control when the request changed nothing, and either when both agree', () => {
    fc.assert(
      fc.property(tripleArb, ([base, live, proposed]) => {
        expect(mergeControl(base, base, proposed)).toEqual({ merged: proposed, conflicts: [] });
        expect(mergeControl(base, live, base)).toEqual({ merged: live, conflicts: [] });
        expect(mergeControl(base, live, live)).toEqual({ merged: live, conflicts: [] });
      }),
    );
  });

  it('keeps every part one side changed, takes the other side elsewhere, and conflicts only where both changed a part differently', () => {
    fc.assert(
      fc.property(tripleArb, ([base, live, proposed]) => {
        const { merged, conflicts } = mergeControl(base, live, proposed);
        const lined = base.rules.length === live.rules.length && base.rules.length === proposed.rules.length;
        const [b, l, p, m] = [base, live, proposed, merged].map((c) => parts(base, c, lined));
        const conflicted = new Set(conflicts.map((c) => c.part));
        for (const part of Object.keys(b!)) {
          const [bv, lv, pv, mv] = [b![part], l![part], p![part], m![part]];
          const both = !sameJson(lv, bv) && !sameJson(pv, bv) && !sameJson(lv, pv);
          expect(conflicted.has(part)).toBe(both);
          // A conflict keeps what is live until the author decides.
          if (both || sameJson(pv, bv)) expect(sameJson(mv, lv)).toBe(true);
          else expect(sameJson(mv, pv)).toBe(true);
        }
        for (const conflict of conflicts) {
          expect(sameJson(conflict.base, b![conflict.part])).toBe(true);
          expect(sameJson(conflict.live, l![conflict.part])).toBe(true);
          expect(sameJson(conflict.proposed, p![conflict.part])).toBe(true);
        }
      }),
    );
  });

  it('finds the same conflicts whichever side is live', () => {
    fc.assert(
      fc.property(tripleArb, ([base, live, proposed]) => {
        const one = mergeControl(base, live, proposed).conflicts.map((c) => c.part);
        const other = mergeControl(base, proposed, live).conflicts.map((c) => c.part);
        expect(other).toEqual(one);
      }),
    );
  });

  it('merges a switch turned on with a rule edited elsewhere, and names a rule both edited', () => {
    const base: ControlSnapshot = {
      enabled: false,
      offVariantKey: 'off',
      rules: [rule('NZ', 100), rule('', 0, true)],
    };
    const live = { ...base, enabled: true };
    const proposed = { ...base, rules: [rule('NZ', 50), rule('', 0, true)] };
    expect(mergeControl(base, live, proposed)).toEqual({
      merged: { enabled: true, offVariantKey: 'off', rules: [rule('NZ', 50), rule('', 0, true)] },
      conflicts: [],
    });

    const theirs = { ...base, rules: [rule('NZ', 20), rule('', 0, true)] };
    const merged = mergeControl(base, theirs, proposed);
    expect(merged.conflicts).toEqual([
      {
        part: 'rules/0',
        label: 'Rule 1',
        base: rule('NZ', 100),
        live: rule('NZ', 20),
        proposed: rule('NZ', 50),
      },
    ]);
    expect(merged.merged.rules[0]).toEqual(rule('NZ', 20));
  });

  it('treats the rules as one part once a side adds or removes a rule', () => {
    const base: ControlSnapshot = { enabled: true, offVariantKey: 'off', rules: [rule('', 100, true)] };
    const live = { ...base, rules: [rule('AU', 100), rule('', 100, true)] };
    const proposed = { ...base, rules: [rule('', 0, true)] };
    expect(mergeControl(base, live, proposed).conflicts.map((c) => [c.part, c.label])).toEqual([
      ['rules', 'Rules'],
    ]);
  });
});

describe('merging a snapshot field by field', () => {
  it('merges different fields, names a field both changed, and keeps what is live there', () => {
    const base = { name: 'Checkout', description: 'Old', tags: ['a'] };
    const live = { name: 'Checkout v2', description: 'Old', tags: ['b'] };
    const proposed = { name: 'Checkout', description: 'New', tags: ['c'] };
    expect(mergeFields(base, live, proposed, { tags: 'Tags' })).toEqual({
      merged: { name: 'Checkout v2', description: 'New', tags: ['b'] },
      conflicts: [{ part: 'tags', label: 'Tags', base: ['a'], live: ['b'], proposed: ['c'] }],
    });
  });
});
