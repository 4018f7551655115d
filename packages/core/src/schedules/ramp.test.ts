import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pureKeyDigest } from '../evaluate/bucket';
import { createEvaluator } from '../evaluate/evaluator';
import type { Rule } from '../schemas/targeting';
import { rampProblem, rampRule, rampSplits } from './ramp';

/** Core's evaluator, its SHA-1 of each user computed once (the same digests, 100 steps over the same users). */
const seen = new Map<string, ArrayLike<number>>();
const { evaluate } = createEvaluator({
  digest: (salt, featureKey, userId) => {
    const key = `${salt}:${featureKey}:${userId}`;
    let digest = seen.get(key);
    if (!digest) seen.set(key, (digest = pureKeyDigest(salt, featureKey, userId)));
    return digest;
  },
});

const USERS = Array.from({ length: 10_000 }, (_, i) => ({ id: `user-${i}`, attributes: { tier: 'gold' } }));

function controlWith(rule: Rule) {
  const fallback: Rule = {
    defaultRule: true,
    audience: null,
    variantSplits: [{ variantKey: 'off', split: 100 }],
  };
  return { key: 'checkout', enabled: true, offVariantKey: 'off', salt: '1', rules: [rule, fallback] };
}

describe('rampSplits', () => {
  it('puts the variant first with its coverage and keeps the others in proportion', () => {
    const base = [
      { variantKey: 'a', split: 60 },
      { variantKey: 'b', split: 40 },
    ];
    expect(rampSplits(base, 'new', 50)).toEqual([
      { variantKey: 'new', split: 50 },
      { variantKey: 'a', split: 30 },
      { variantKey: 'b', split: 20 },
    ]);
    expect(rampSplits(base, 'new', 100)).toEqual([
      { variantKey: 'new', split: 100 },
      { variantKey: 'a', split: 0 },
      { variantKey: 'b', split: 0 },
    ]);
  });

  it('takes the variant out of the others when the rule served it already', () => {
    const base = [
      { variantKey: 'off', split: 90 },
      { variantKey: 'on', split: 10 },
    ];
    expect(rampSplits(base, 'on', 25)).toEqual([
      { variantKey: 'on', split: 25 },
      { variantKey: 'off', split: 75 },
    ]);
  });

  it('always adds up to 100 and never gives a variant a negative share', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(100), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 100 }),
        (weights, coverage) => {
          const base = weights.map((split, i) => ({ variantKey: `v${i}`, split }));
          const splits = rampSplits(base, 'new', coverage);
          expect(splits.reduce((sum, split) => sum + split.split, 0)).toBe(100);
          expect(splits.every((split) => split.split >= 0)).toBe(true);
          expect(splits[0]).toEqual({ variantKey: 'new', split: coverage });
        },
      ),
    );
  });

  it('refuses a rule that already serves only the variant', () => {
    const rule: Rule = {
      defaultRule: true,
      audience: null,
      variantSplits: [{ variantKey: 'on', split: 100 }],
    };
    expect(rampProblem(rule, 'on')).toMatch(/already serves this variant/);
    expect(rampProblem(rule, 'new')).toBeNull();
    expect(rampProblem(undefined, 'new')).toBe('There is no such rule.');
  });
});

describe('a ramp from 1 to 100 % is monotone', () => {
  it('keeps every one of 10,000 users who got the variant at one step at every later step', () => {
    const base: Rule = {
      defaultRule: false,
      audience: { conditions: [{ target: 'tier', operator: 'equals', values: ['gold'] }] },
      variantSplits: [
        { variantKey: 'off', split: 70 },
        { variantKey: 'blue', split: 30 },
      ],
    };
    let served = new Set<string>();
    const now = new Date('2026-12-07T12:00:00Z');
    for (let coverage = 1; coverage <= 100; coverage++) {
      const control = controlWith(rampRule(base, 'green', coverage));
      const next = new Set<string>();
      for (const user of USERS) if (evaluate(control, user, now).variant === 'green') next.add(user.id);
      const lost = [...served].filter((id) => !next.has(id));
      expect(lost, `users who lost the variant at ${coverage} %`).toEqual([]);
      // Roughly the coverage: buckets are uniform over 10,000 users.
      expect(Math.abs(next.size / USERS.length - coverage / 100)).toBeLessThan(0.03);
      served = next;
    }
    expect(served.size).toBe(USERS.length);
  });
});
