import { describe, expect, it } from 'vitest';
import { toFieldErrors } from './common';
import {
  conditionForm,
  defaultControlFor,
  defaultRules,
  describeRules,
  trafficOf,
  featureControlInput,
  featureControlSchema,
  ruleSchema,
  rulesSchema,
  targetingStatusOf,
  type Rule,
} from './features';
import { FEATURE_CONTROL, ID } from './test-samples';

const errors = (result: { error?: { issues: Parameters<typeof toFieldErrors>[0] } }) =>
  result.error ? toFieldErrors(result.error.issues) : [];

const targeted: Rule = {
  defaultRule: false,
  audience: { conditions: [{ target: 'tier', operator: 'equals', values: ['gold'] }] },
  variantSplits: [{ variantKey: 'on', split: 100 }],
};
const fallback = { defaultRule: true, audience: null, variantSplits: [{ variantKey: 'off', split: 100 }] };

describe('featureControlSchema', () => {
  it('accepts the FeatureControl JSON of docs/sdk-protocol.md §8', () => {
    expect(featureControlSchema.parse(FEATURE_CONTROL)).toEqual(FEATURE_CONTROL);
  });
});

describe('ruleSchema', () => {
  it('needs whole-number splits from 0 to 100 that add up to 100', () => {
    const rule = (variantSplits: unknown) => ruleSchema.safeParse({ ...fallback, variantSplits });
    expect(
      rule([
        { variantKey: 'on', split: 50 },
        { variantKey: 'off', split: 50 },
      ]).success,
    ).toBe(true);
    expect(
      errors(
        rule([
          { variantKey: 'on', split: 60 },
          { variantKey: 'off', split: 50 },
        ]),
      ),
    ).toEqual([{ field: 'variantSplits', message: 'Splits must add up to 100.' }]);
    expect(errors(rule([{ variantKey: 'on', split: 100.5 }]))).toContainEqual({
      field: 'variantSplits.0.split',
      message: 'Split must be a whole number',
    });
    expect(rule([{ variantKey: 'on', split: 101 }]).success).toBe(false);
    expect(
      rule([
        { variantKey: 'on', split: -1 },
        { variantKey: 'off', split: 101 },
      ]).success,
    ).toBe(false);
  });

  it('requires a variant', () => {
    expect(errors(ruleSchema.safeParse({ ...fallback, variantSplits: [] }))).toEqual([
      { field: 'variantSplits', message: 'Variant is required' },
    ]);
    expect(
      errors(ruleSchema.safeParse({ ...fallback, variantSplits: [{ variantKey: '', split: 100 }] })),
    ).toEqual([{ field: 'variantSplits.0.variantKey', message: 'Variant is required' }]);
  });

  it('names each variant once', () => {
    const variantSplits = [
      { variantKey: 'on', split: 50 },
      { variantKey: 'on', split: 50 },
    ];
    expect(errors(ruleSchema.safeParse({ ...fallback, variantSplits }))).toEqual([
      { field: 'variantSplits', message: 'Each variant may appear only once.' },
    ]);
  });

  it('keeps the audience null on the default rule and set on the others', () => {
    expect(ruleSchema.safeParse({ ...fallback, audience: { conditions: [] } }).success).toBe(false);
    expect(ruleSchema.safeParse({ ...targeted, audience: null }).success).toBe(false);
  });

  it('reports missing condition parts with the product’s messages', () => {
    const audience = { conditions: [{ target: '', operator: 'equals', values: [] }] };
    expect(errors(ruleSchema.safeParse({ ...targeted, audience }))).toEqual([
      { field: 'audience.conditions.0.target', message: 'Required' },
      { field: 'audience.conditions.0.values', message: 'Value is required' },
    ]);
  });

  it('refuses operators the SDKs do not know and non-primitive values', () => {
    const withCondition = (condition: unknown) =>
      ruleSchema.safeParse({ ...targeted, audience: { conditions: [condition] } }).success;
    expect(withCondition({ target: 'tier', operator: 'fakeOperator', values: ['x'] })).toBe(false);
    expect(withCondition({ target: 'tier', operator: 'in', values: [{ nested: true }] })).toBe(false);
    expect(withCondition({ target: 'age', operator: 'greaterThan', values: [18] })).toBe(true);
  });
});

describe('rulesSchema', () => {
  it('needs exactly one default rule, last', () => {
    expect(rulesSchema.safeParse([targeted, fallback]).success).toBe(true);
    expect(errors(rulesSchema.safeParse([fallback, targeted]))).toEqual([
      { field: '', message: 'The default rule must come last.' },
    ]);
    expect(errors(rulesSchema.safeParse([targeted]))).toEqual([
      { field: '', message: 'Exactly one default rule is required.' },
    ]);
    expect(rulesSchema.safeParse([fallback, fallback]).success).toBe(false);
  });

  it('accepts defaultRules()', () => {
    expect(rulesSchema.parse(defaultRules())).toEqual([
      { defaultRule: true, audience: null, variantSplits: [{ variantKey: 'on', split: 100 }] },
    ]);
  });
});

describe('defaultControlFor', () => {
  it('starts off, serving off, and gives everyone on once switched on', () => {
    expect(defaultControlFor(['on', 'off'])).toEqual({
      enabled: false,
      offVariantKey: 'off',
      rules: [{ defaultRule: true, audience: null, variantSplits: [{ variantKey: 'on', split: 100 }] }],
    });
  });

  it('falls back to the last variant as off and the first other as on', () => {
    const control = defaultControlFor(['red', 'green', 'blue']);
    expect(control.offVariantKey).toBe('blue');
    expect(control.rules[0]?.variantSplits).toEqual([{ variantKey: 'red', split: 100 }]);
    expect(rulesSchema.safeParse(control.rules).success).toBe(true);
  });
});

describe('featureControlInput', () => {
  it('requires the off variant', () => {
    expect(
      errors(featureControlInput.safeParse({ id: ID, enabled: true, offVariantKey: '', rules: [fallback] })),
    ).toEqual([{ field: 'offVariantKey', message: 'Off variant is required' }]);
  });
});

describe('targetingStatusOf', () => {
  it('is off when disabled, single for one variant at 100 %, targeted otherwise', () => {
    expect(targetingStatusOf({ enabled: false, rules: defaultRules() })).toBe('off');
    expect(targetingStatusOf({ enabled: true, rules: defaultRules('on') })).toBe('single');
    expect(targetingStatusOf({ enabled: true, rules: FEATURE_CONTROL.rules })).toBe('targeted');
  });
});

describe('conditionForm', () => {
  it('says "Required" for a missing target or operator', () => {
    expect(errors(conditionForm.safeParse({ values: ['x'] }))).toEqual([
      { field: 'target', message: 'Required' },
      { field: 'operator', message: 'Required' },
    ]);
  });

  it('says "Value is required", or "Segment is required" for a segment target', () => {
    expect(errors(conditionForm.safeParse({ target: 'tier', operator: 'equals', values: [' '] }))).toEqual([
      { field: 'values', message: 'Value is required' },
    ]);
    expect(
      errors(conditionForm.safeParse({ target: 'segment', targetType: 'segment', operator: 'in' })),
    ).toEqual([{ field: 'values', message: 'Segment is required' }]);
  });

  it('allows only the operators of the target type', () => {
    expect(
      errors(
        conditionForm.safeParse({
          target: 'signup',
          targetType: 'date',
          operator: 'equals',
          values: ['2026-01-01'],
        }),
      ),
    ).toEqual([{ field: 'operator', message: 'Operator is not valid for this target.' }]);
  });

  it('parses numbers as floats', () => {
    expect(
      conditionForm.parse({ target: 'age', targetType: 'number', operator: 'greaterThan', values: ['18.5'] }),
    ).toEqual({
      target: 'age',
      operator: 'greaterThan',
      values: [18.5],
    });
    expect(
      errors(
        conditionForm.safeParse({ target: 'age', targetType: 'number', operator: 'equals', values: ['old'] }),
      ),
    ).toEqual([{ field: 'values.0', message: 'Must be a number' }]);
  });

  it('checks dates', () => {
    const date = (value: string) =>
      conditionForm.safeParse({ target: 'signup', targetType: 'date', operator: 'after', values: [value] })
        .success;
    expect(date('2026-07-03')).toBe(true);
    expect(date('2026-07-03T00:00:01Z')).toBe(true);
    expect(date('2026-7-3')).toBe(false);
  });

  it('keeps several values only for in and notIn', () => {
    expect(
      conditionForm.parse({ target: 'tier', operator: 'in', values: ['gold', '', 'silver'] }).values,
    ).toEqual(['gold', 'silver']);
    expect(
      conditionForm.parse({ target: 'tier', operator: 'equals', values: ['gold', 'silver'] }).values,
    ).toEqual(['gold']);
  });
});

describe('trafficOf', () => {
  const now = new Date('2026-11-21T12:00:00Z');
  it('is never without impressions, counting stale days from creation', () => {
    expect(trafficOf({ lastImpressionDate: null, createdDate: '2026-11-18T12:00:00Z' }, now)).toEqual({
      trafficStatus: 'never',
      staleDays: 3,
    });
  });
  it('is active until seven whole days pass without an impression, then inactive', () => {
    const created = '2026-01-01T00:00:00Z';
    expect(trafficOf({ lastImpressionDate: '2026-11-21T11:00:00Z', createdDate: created }, now)).toEqual({
      trafficStatus: 'active',
      staleDays: 0,
    });
    expect(
      trafficOf({ lastImpressionDate: '2026-11-14T12:00:01Z', createdDate: created }, now).trafficStatus,
    ).toBe('active');
    expect(trafficOf({ lastImpressionDate: '2026-11-14T12:00:00Z', createdDate: created }, now)).toEqual({
      trafficStatus: 'inactive',
      staleDays: 7,
    });
  });
});

describe('describeRules', () => {
  const names = { on: 'On', off: 'Off' };
  it('says what everyone gets when off', () => {
    expect(describeRules({ enabled: false, offVariantKey: 'off', rules: defaultRules() }, names)).toBe(
      'Off: everyone gets Off.',
    );
  });
  it('names the single variant, or the split, of the default rule', () => {
    expect(describeRules({ enabled: true, offVariantKey: 'off', rules: defaultRules() }, names)).toBe(
      'Everyone gets On.',
    );
    const split = [
      {
        defaultRule: true,
        audience: null,
        variantSplits: [
          { variantKey: 'on', split: 50 },
          { variantKey: 'off', split: 50 },
        ],
      },
    ];
    expect(describeRules({ enabled: true, offVariantKey: 'off', rules: split }, names)).toBe(
      'Everyone gets 50% On, 50% Off.',
    );
  });
  it('counts targeting rules before the default', () => {
    expect(
      describeRules({
        enabled: true,
        offVariantKey: 'off',
        rules: [targeted, targeted, ...defaultRules('off')],
      }),
    ).toBe('2 targeting rules, otherwise off.');
  });
});
