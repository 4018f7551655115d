import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import cases from './cases.json';
import { variantForBucket, type EvaluableControl, type EvaluationUser } from './engine';
import { bucketOf, bucketPrefix, clientRules, createEvaluator, evaluate } from './evaluator';
import { satisfies } from './operators';

describe('cases.json (docs/sdk-protocol.md §10)', () => {
  it.each(cases.bucketing)('bucket of $salt:$feature:$userId is $bucket', (row) => {
    expect(bucketOf(row.salt, row.feature, row.userId)).toBe(row.bucket);
    if ('prefix' in row && row.prefix)
      expect(bucketPrefix(row.salt, row.feature, row.userId)).toBe(row.prefix);
  });

  it.each(cases.splits)('bucket $bucket falls in $expected', (row) => {
    expect(variantForBucket(row.splits, row.bucket)).toBe(row.expected);
  });

  it.each(cases.operators)('$userValue $operator $values is $expected', (row) => {
    expect(satisfies(row.operator, row.userValue, row.values)).toBe(row.expected);
  });

  it.each(cases.evaluations)('$name', (row) => {
    const result = evaluate(row.control as EvaluableControl, row.user as EvaluationUser, new Date(row.now));
    expect(result).toEqual(row.expected);
  });
});

const valueArb = fc.oneof(fc.string(), fc.double(), fc.integer(), fc.boolean(), fc.constant(null));
const conditionArb = fc.record({
  target: fc.oneof(
    fc.constantFrom('tier', 'email', 'age', 'featureflow.date', 'featureflow.hourofday'),
    fc.string(),
  ),
  operator: fc.oneof(
    fc.constantFrom(
      'equals',
      'contains',
      'startsWith',
      'endsWith',
      'matches',
      'in',
      'notIn',
      'greaterThan',
      'lessThan',
      'before',
      'after',
    ),
    fc.string(),
  ),
  values: fc.array(valueArb, { maxLength: 4 }),
});
const splitsArb = fc.array(
  fc.record({ variantKey: fc.constantFrom('on', 'off', 'a'), split: fc.integer({ min: -5, max: 120 }) }),
  {
    maxLength: 4,
  },
);
const ruleArb = fc.record({
  defaultRule: fc.boolean(),
  audience: fc.option(fc.record({ conditions: fc.array(conditionArb, { maxLength: 3 }) }), { nil: null }),
  variantSplits: splitsArb,
});
const controlArb = fc.record({
  key: fc.string(),
  enabled: fc.boolean(),
  offVariantKey: fc.string(),
  rules: fc.array(ruleArb, { maxLength: 4 }),
});
const userArb = fc.record({
  id: fc.option(fc.string(), { nil: undefined }),
  attributes: fc.option(
    fc.dictionary(fc.string(), fc.oneof(valueArb, fc.array(valueArb, { maxLength: 3 }))),
    { nil: undefined },
  ),
});
const now = new Date('2026-11-21T12:00:00Z');

describe('evaluate: properties', () => {
  it('never throws, and gives the same answer for the same input', () => {
    fc.assert(
      fc.property(controlArb, userArb, (control, user) => {
        const first = evaluate(control, user, now);
        expect(typeof first.variant).toBe('string');
        expect(evaluate(control, user, now)).toEqual(first);
      }),
      { numRuns: 2000 },
    );
  });

  it('gives each split its share of 100,000 users within one percentage point', () => {
    fc.assert(
      fc.property(
        fc
          .array(fc.nat({ max: 100 }), { minLength: 2, maxLength: 4 })
          .filter((w) => w.reduce((a, b) => a + b, 0) > 0),
        (weights) => {
          const total = weights.reduce((a, b) => a + b, 0);
          const splits = weights.map((w) => Math.floor((w * 100) / total));
          splits[0]! += 100 - splits.reduce((a, b) => a + b, 0);
          const control: EvaluableControl = {
            key: 'share',
            enabled: true,
            offVariantKey: 'off',
            rules: [
              {
                defaultRule: true,
                audience: null,
                variantSplits: splits.map((split, i) => ({ variantKey: `v${i}`, split })),
              },
            ],
          };
          const counts = new Map<string, number>();
          const users = 100_000;
          for (let i = 0; i < users; i++) {
            const { variant } = evaluate(control, { id: `user-${i}` }, now);
            counts.set(variant, (counts.get(variant) ?? 0) + 1);
          }
          splits.forEach((split, i) => {
            expect(Math.abs(((counts.get(`v${i}`) ?? 0) / users) * 100 - split)).toBeLessThanOrEqual(1);
          });
        },
      ),
      { numRuns: 3 },
    );
  });

  it('runs matches on a 10,000-character input in linear time', () => {
    const control: EvaluableControl = {
      key: 'redos',
      enabled: true,
      offVariantKey: 'off',
      rules: [
        {
          defaultRule: false,
          audience: { conditions: [{ target: 'name', operator: 'matches', values: ['^(a+)+$'] }] },
          variantSplits: [{ variantKey: 'on', split: 100 }],
        },
        { defaultRule: true, audience: null, variantSplits: [{ variantKey: 'off', split: 100 }] },
      ],
    };
    const started = Date.now();
    const result = evaluate(control, { id: 'u', attributes: { name: `${'a'.repeat(10_000)}!` } }, now);
    expect(result.variant).toBe('off');
    // A backtracking engine needs longer than the age of the universe here; RE2 needs milliseconds.
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe('clientRules (docs/sdk-protocol.md §6.1)', () => {
  const banner: EvaluableControl = {
    key: 'banner',
    enabled: true,
    offVariantKey: 'off',
    rules: [
      {
        defaultRule: false,
        audience: {
          conditions: [
            { target: 'tier', operator: 'equals', values: ['gold'] },
            { target: 'featureflow.hourofday', operator: 'greaterThanOrEqual', values: [9] },
          ],
        },
        variantSplits: [{ variantKey: 'on', split: 100 }],
      },
      {
        defaultRule: true,
        audience: null,
        variantSplits: [
          { variantKey: 'off', split: 50 },
          { variantKey: 'on', split: 50 },
        ],
      },
    ],
  };

  it('leaves only the time conditions for the device (the protocol example, user-4 bucket 40)', () => {
    expect(clientRules(banner, { id: 'user-4', attributes: { tier: 'gold' } }, now)).toEqual({
      rules: [
        {
          audience: {
            conditions: [{ target: 'featureflow.hourofday', operator: 'greaterThanOrEqual', values: [9] }],
          },
          variant: 'on',
        },
        { variant: 'off' },
      ],
    });
  });

  it('stops at a rule without time conditions, skips rules that fail, and adds variant values', () => {
    const values: Record<string, unknown> = { on: { colour: 'gold' } };
    // banner buckets: user-5 24 (off), user-2 99 (on).
    expect(
      clientRules(banner, { id: 'user-5', attributes: { tier: 'silver' } }, now, (v) => values[v]),
    ).toEqual({
      rules: [{ variant: 'off' }],
    });
    expect(clientRules(banner, { id: 'user-2' }, now, (v) => values[v])).toEqual({
      rules: [{ variant: 'on', value: { colour: 'gold' } }],
    });
    expect(clientRules({ ...banner, enabled: false }, { id: 'user-1' }, now)).toEqual({
      rules: [{ variant: 'off' }],
    });
  });
});

describe('createEvaluator', () => {
  const split: EvaluableControl = {
    key: 'split',
    enabled: true,
    offVariantKey: 'off',
    rules: [
      {
        defaultRule: true,
        audience: null,
        variantSplits: [
          { variantKey: 'a', split: 50 },
          { variantKey: 'b', split: 50 },
        ],
      },
    ],
  };

  it('gives two evaluators with different digests their own buckets, in any order of use', () => {
    // Made after the pure one and used between its calls: a digest whose every byte is zero puts
    // every user in bucket 1, the first split's.
    const zeros = new Uint8Array(20);
    const pure = createEvaluator();
    const constant = createEvaluator({ digest: () => zeros });
    fc.assert(
      fc.property(fc.string(), fc.string(), (featureKey, userId) => {
        const expected = bucketOf('1', featureKey, userId);
        expect(constant.bucketOf('1', featureKey, userId)).toBe(1);
        expect(pure.bucketOf('1', featureKey, userId)).toBe(expected);
        expect(constant.bucketPrefix('1', featureKey, userId)).toBe('0'.repeat(15));
        expect(pure.bucketPrefix('1', featureKey, userId)).toBe(bucketPrefix('1', featureKey, userId));
      }),
      { numRuns: 500 },
    );
    const variants = { pure: new Set<string>(), constant: new Set<string>() };
    for (let i = 0; i < 200; i++) {
      variants.constant.add(constant.evaluate(split, { id: `user-${i}` }, now).variant);
      variants.pure.add(pure.evaluate(split, { id: `user-${i}` }, now).variant);
      variants.constant.add(constant.clientRules(split, { id: `user-${i}` }, now).rules[0]!.variant);
    }
    expect(variants).toEqual({ pure: new Set(['a', 'b']), constant: new Set(['a']) });
    for (const row of cases.bucketing)
      expect(pure.bucketOf(row.salt, row.feature, row.userId)).toBe(row.bucket);
  });

  it('hashes the joined text when given a SHA-1 of text', () => {
    const joined: string[] = [];
    const evaluator = createEvaluator({
      sha1: (input) => {
        joined.push(input);
        return new Uint8Array(20).fill(0xff);
      },
    });
    // 0xfffffffffffffff mod 100 is 75.
    expect(evaluator.bucketOf('1', 'banner', 'user-4')).toBe(76);
    expect(joined).toEqual(['1:banner:user-4']);
  });
});
