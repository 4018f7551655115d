import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  isIsoDate,
  rebalanceSplits,
  ruleProblems,
  targetTypeOf,
  variantProblems,
  type RuleContext,
} from './rules';
import type { Rule } from './schemas/targeting';
import { OPERATORS, OPERATORS_BY_TARGET_TYPE, TARGET_TYPES, type Operator } from './schemas/targets';

const context: RuleContext = {
  targetTypes: { email: 'string', age: 'number', signup: 'date', cohorts: 'segment' },
  segmentKeys: new Set(['beta', 'staff']),
};
const keyOfType = { string: 'email', number: 'age', date: 'signup', segment: 'cohorts' } as const;
const valueOfType = { string: 'x', number: 18, date: '2026-01-01', segment: 'beta' } as const;

function ruleWith(target: string, operator: Operator, values: (string | number | boolean)[]): Rule[] {
  return [
    {
      defaultRule: false,
      audience: { conditions: [{ target, operator, values }] },
      variantSplits: [{ variantKey: 'on', split: 100 }],
    },
    { defaultRule: true, audience: null, variantSplits: [{ variantKey: 'off', split: 100 }] },
  ];
}

describe('ruleProblems', () => {
  it('accepts exactly the operators of each target type (docs/product.md §5)', () => {
    for (const type of TARGET_TYPES) {
      for (const operator of OPERATORS) {
        const problems = ruleProblems(ruleWith(keyOfType[type], operator, [valueOfType[type]]), context);
        const allowed = OPERATORS_BY_TARGET_TYPE[type].includes(operator);
        expect(problems.length === 0, `${type} ${operator}`).toBe(allowed);
        if (!allowed) expect(problems[0]!.field).toBe('rules.0.audience.conditions.0.operator');
      }
    }
  });

  it('types the values: numbers, ISO dates, valid patterns, known segments', () => {
    const field = 'rules.0.audience.conditions.0.values.0';
    expect(ruleProblems(ruleWith('age', 'greaterThan', ['18']), context)).toEqual([
      { field, message: 'Must be a number' },
    ]);
    expect(ruleProblems(ruleWith('signup', 'before', ['2026-02-30']), context)).toEqual([
      { field, message: 'Must be a date' },
    ]);
    expect(ruleProblems(ruleWith('signup', 'after', ['2026-02-03T10:00:00Z']), context)).toEqual([]);
    expect(ruleProblems(ruleWith('email', 'matches', ['(unclosed']), context)).toEqual([
      { field, message: 'Must be a valid pattern' },
    ]);
    expect(ruleProblems(ruleWith('cohorts', 'in', ['beta', 'ghosts']), context)).toEqual([
      {
        field: 'rules.0.audience.conditions.0.values.1',
        message: 'There is no segment "ghosts" in this environment.',
      },
    ]);
  });

  it('allows several values only for in and notIn', () => {
    expect(ruleProblems(ruleWith('email', 'in', ['a', 'b', 'c']), context)).toEqual([]);
    expect(ruleProblems(ruleWith('email', 'equals', ['a', 'b']), context)).toEqual([
      { field: 'rules.0.audience.conditions.0.values', message: '"equals" takes one value.' },
    ]);
  });

  it('needs a condition on every rule but the default', () => {
    const rules: Rule[] = [
      { defaultRule: false, audience: { conditions: [] }, variantSplits: [{ variantKey: 'on', split: 100 }] },
      { defaultRule: true, audience: null, variantSplits: [{ variantKey: 'off', split: 100 }] },
    ];
    expect(ruleProblems(rules, context)).toEqual([
      { field: 'rules.0.audience.conditions', message: 'A rule needs at least one condition.' },
    ]);
  });

  it('treats undeclared attributes as strings and knows the built-in ones', () => {
    expect(targetTypeOf('plan', context)).toBe('string');
    expect(targetTypeOf('featureflow.hourofday', context)).toBe('number');
    expect(ruleProblems(ruleWith('featureflow.hourofday', 'lessThan', [12]), context)).toEqual([]);
  });
});

describe('isIsoDate', () => {
  it('accepts dates and date-times that exist, and nothing else', () => {
    expect(isIsoDate('2026-07-29')).toBe(true);
    expect(isIsoDate('2026-07-29T10:20:30.123+02:00')).toBe(true);
    expect(isIsoDate('2026-07-32')).toBe(false);
    expect(isIsoDate('2026-7-3')).toBe(false);
    expect(isIsoDate('tomorrow')).toBe(false);
  });
});

describe('rebalanceSplits', () => {
  const splitsArb = fc
    .array(fc.nat({ max: 100 }), { minLength: 1, maxLength: 8 })
    .map((weights) => weights.map((w, i) => ({ variantKey: `v${i}`, split: w })));

  it('always sums to 100 with every split a whole number in 0..100', () => {
    fc.assert(
      fc.property(
        splitsArb,
        fc.nat({ max: 20 }),
        fc.double({ min: -500, max: 500, noNaN: true }),
        (splits, i, value) => {
          const result = rebalanceSplits(splits, i % splits.length, value);
          expect(result.reduce((sum, s) => sum + s.split, 0)).toBe(100);
          for (const s of result) {
            expect(Number.isInteger(s.split)).toBe(true);
            expect(s.split).toBeGreaterThanOrEqual(0);
            expect(s.split).toBeLessThanOrEqual(100);
          }
          expect(result.map((s) => s.variantKey)).toEqual(splits.map((s) => s.variantKey));
        },
      ),
    );
  });

  it('keeps the edited value, clamped, whenever there is another variant', () => {
    fc.assert(
      fc.property(
        splitsArb.filter((s) => s.length > 1),
        fc.nat({ max: 20 }),
        fc.integer({ min: -50, max: 150 }),
        (splits, i, value) => {
          const index = i % splits.length;
          expect(rebalanceSplits(splits, index, value)[index]!.split).toBe(Math.min(100, Math.max(0, value)));
        },
      ),
    );
  });

  it('shares the rest in proportion, evenly when the others are 0', () => {
    const three = [
      { variantKey: 'a', split: 50 },
      { variantKey: 'b', split: 30 },
      { variantKey: 'c', split: 20 },
    ];
    expect(rebalanceSplits(three, 0, 0).map((s) => s.split)).toEqual([0, 60, 40]);
    const zeros = [
      { variantKey: 'a', split: 100 },
      { variantKey: 'b', split: 0 },
      { variantKey: 'c', split: 0 },
    ];
    expect(rebalanceSplits(zeros, 0, 40).map((s) => s.split)).toEqual([40, 30, 30]);
  });
});

describe('variantProblems', () => {
  const rule = (...keys: string[]) => ({
    variantSplits: keys.map((variantKey) => ({ variantKey, split: 0 })),
  });

  it('accepts a control naming only the feature’s variants', () => {
    expect(variantProblems({ offVariantKey: 'off', rules: [rule('on', 'off')] }, ['on', 'off'])).toEqual([]);
  });

  it('names the off variant and each rule serving an unknown variant, in one wording', () => {
    expect(
      variantProblems({ offVariantKey: 'gone', rules: [rule('on'), rule('purple')] }, ['on', 'off']),
    ).toEqual([
      { field: 'offVariantKey', message: 'The off variant must be one of the feature’s variants.' },
      { field: 'rules.1.variantSplits', message: '"purple" is not a variant of this feature.' },
    ]);
  });

  it('does not take an object’s built-in names for variants', () => {
    expect(
      variantProblems({ offVariantKey: 'toString', rules: [rule('constructor')] }, ['on', 'off']),
    ).toHaveLength(2);
  });
});
