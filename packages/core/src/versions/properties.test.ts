import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  controlSnapshotSchema,
  featureSettingsSnapshotSchema,
  type ControlSnapshot,
} from '../schemas/versions';
import type { FeatureSettingsSnapshot } from '../schemas/versions';
import type { Rule } from '../schemas/targeting';
import { OPERATORS } from '../schemas/targets';
import { controlChanges } from './control-changes';
import { featureSettingsChanges } from './feature-settings-changes';
import { applyJsonPatch, jsonPatch } from './json-patch';

/** A deep copy that keeps undefined members and prototypes, to see that nothing at all was changed. */
function copyOf<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copyOf) as T;
  if (typeof value !== 'object' || value === null) return value;
  const copy = Object.create(Object.getPrototypeOf(value) as object | null) as Record<string, unknown>;
  for (const [key, member] of Object.entries(value)) copy[key] = copyOf(member);
  return copy as T;
}

/*
 * Properties of versions' diffs over random snapshots: the patch takes one version to the other,
 * and the sentences are empty exactly when nothing changed. Small pools of keys and values make
 * equal, moved and edited rules common, and each pair is either unrelated or one edit apart.
 */

const VARIANT_KEYS = ['on', 'off', 'blue', 'green'];
const TARGETS = ['country', 'email', 'age', 'segments', 'featureflow.date', 'featureflow.user.id'];
const names = {
  variants: { on: 'On', off: 'Off', blue: 'Blue', green: 'Blue' },
  targets: { country: 'Country', email: 'Email', age: 'Email' },
  targetTypes: { segments: 'segment', age: 'number' } as const,
};

/** A value as JSON keeps it, compared member by member: an independent check of "equal as JSON". */
function equalAsJson(a: unknown, b: unknown): boolean {
  const x: unknown = JSON.parse(JSON.stringify(a));
  const y: unknown = JSON.parse(JSON.stringify(b));
  if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return x === y;
  if (Array.isArray(x) !== Array.isArray(y)) return false;
  const xs = x as Record<string, unknown>;
  const ys = y as Record<string, unknown>;
  const keys = Object.keys(xs);
  if (keys.length !== Object.keys(ys).length) return false;
  return keys.every((key) => key in ys && equalAsJson(xs[key], ys[key]));
}

/** The same value with every object's keys in reverse order: equal as JSON. */
function keysReversed<T>(value: T): T {
  if (Array.isArray(value)) return value.map(keysReversed) as T;
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, member]) => [key, keysReversed(member)]),
  ) as T;
}

const valueArb = fc.oneof(
  fc.constantFrom('NZ', 'AU', '@acme.com', 'beta', '', ' spaced ', 'a, b', '1', 'true'),
  fc.string({ maxLength: 6 }),
  fc.integer({ min: -3, max: 3 }),
  fc.boolean(),
);

const conditionArb = fc.record({
  target: fc.constantFrom(...TARGETS),
  operator: fc.constantFrom(...OPERATORS),
  values: fc.array(valueArb, { minLength: 1, maxLength: 3 }),
});

/** Splits of 1 to 3 distinct variants that add up to 100, some of them 0. */
const splitsArb = fc
  .uniqueArray(fc.constantFrom(...VARIANT_KEYS), { minLength: 1, maxLength: 3 })
  .chain((keys) =>
    fc
      .array(fc.constantFrom(0, 20, 50, 80, 100), { minLength: keys.length, maxLength: keys.length })
      .map((weights) => {
        const splits = keys.map((variantKey, i) => ({ variantKey, split: Math.min(weights[i]!, 100) }));
        let left = 100;
        for (const split of splits) {
          split.split = Math.min(split.split, left);
          left -= split.split;
        }
        splits[splits.length - 1]!.split += left;
        return splits;
      }),
  );

const priorityArb = fc.option(fc.constantFrom(1, 2), { nil: undefined });

const targetedRuleArb: fc.Arbitrary<Rule> = fc.record(
  {
    defaultRule: fc.constant(false),
    priority: priorityArb,
    audience: fc.record({ conditions: fc.array(conditionArb, { minLength: 0, maxLength: 2 }) }),
    variantSplits: splitsArb,
  },
  { requiredKeys: ['defaultRule', 'audience', 'variantSplits'] },
);

const defaultRuleArb: fc.Arbitrary<Rule> = fc.record(
  {
    defaultRule: fc.constant(true),
    priority: priorityArb,
    audience: fc.constant(null),
    variantSplits: splitsArb,
  },
  { requiredKeys: ['defaultRule', 'audience', 'variantSplits'] },
);

const controlArb: fc.Arbitrary<ControlSnapshot> = fc.record({
  enabled: fc.boolean(),
  offVariantKey: fc.constantFrom(...VARIANT_KEYS),
  rules: fc
    .tuple(fc.array(targetedRuleArb, { maxLength: 5 }), defaultRuleArb)
    .map(([targeted, fallback]) => [...targeted, fallback]),
});

/** A second control: unrelated, equal as JSON, its rules shuffled or some dropped, one rule edited, one switch. */
const controlPairArb = controlArb.chain((a) => {
  const targeted = a.rules.slice(0, -1);
  const fallback = a.rules[a.rules.length - 1]!;
  return fc.tuple(
    fc.constant(a),
    fc.oneof(
      controlArb,
      fc.constant(keysReversed(a)),
      fc.shuffledSubarray(targeted).map((rules) => ({ ...a, rules: [...rules, fallback] })),
      fc.tuple(fc.nat(targeted.length), targetedRuleArb).map(([at, rule]) => ({
        ...a,
        rules: [...targeted.slice(0, at), rule, ...targeted.slice(at + 1), fallback],
      })),
      fc
        .tuple(fc.boolean(), fc.constantFrom(...VARIANT_KEYS), defaultRuleArb)
        .map(([enabled, off, last]) => ({
          ...a,
          enabled,
          offVariantKey: off,
          rules: [...targeted, last],
        })),
    ),
  );
});

const listArb = fc.array(fc.constantFrom('beta', 'mobile', 'web', ' x', ''), { maxLength: 3 });
const settingsArb: fc.Arbitrary<FeatureSettingsSnapshot> = fc.record({
  name: fc.constantFrom('Checkout', 'New checkout'),
  key: fc.constant('checkout'),
  description: fc.constantFrom('', 'Pays in one step'),
  permanent: fc.boolean(),
  variants: fc.uniqueArray(
    fc.record(
      {
        key: fc.constantFrom(...VARIANT_KEYS),
        name: fc.constantFrom('On', 'Off', 'Blue', 'Navy'),
        description: fc.constantFrom('', 'The new one'),
        value: fc.oneof(
          fc.constant(null),
          fc.boolean(),
          fc.string({ maxLength: 3 }),
          fc.constant<{ a: number[] }>({ a: [1, 2] }),
        ),
      },
      { requiredKeys: ['key', 'name', 'description'] },
    ),
    { selector: (variant) => variant.key, maxLength: 4 },
  ),
  tags: listArb,
  goals: listArb,
  jiraIssueKeys: fc.array(fc.constantFrom('VEX-1', 'VEX-2'), { maxLength: 2 }),
  maintainer: fc.option(
    fc.record({
      id: fc.constantFrom('3f0b7c1e-2a4d-4e8f-9b6a-1c2d3e4f5a6b', '4f0b7c1e-2a4d-4e8f-9b6a-1c2d3e4f5a6b'),
      name: fc.constantFrom('Ann', 'Bo'),
    }),
    { nil: null },
  ),
});

const settingsPairArb = settingsArb.chain((a) =>
  fc.tuple(
    fc.constant(a),
    fc.oneof(
      settingsArb,
      fc.constant(keysReversed(a)),
      fc.shuffledSubarray(a.variants).map((variants) => ({ ...a, variants })),
      settingsArb.map((b) => ({ ...a, tags: b.tags, goals: b.goals, maintainer: b.maintainer })),
    ),
  ),
);

describe('the random snapshots', () => {
  it('are valid snapshots, so the properties below speak of what the API stores', () => {
    fc.assert(
      fc.property(controlArb, (control) => {
        expect(controlSnapshotSchema.safeParse(control).error).toBeUndefined();
      }),
    );
    fc.assert(
      fc.property(settingsArb, (settings) => {
        expect(featureSettingsSnapshotSchema.safeParse(settings).error).toBeUndefined();
      }),
    );
  });
});

describe('jsonPatch and applyJsonPatch', () => {
  it('patch(a, b) applied to a gives b, for controls and for feature settings', () => {
    fc.assert(
      fc.property(fc.oneof(controlPairArb, settingsPairArb), ([a, b]) => {
        expect(applyJsonPatch(a, jsonPatch(a, b))).toEqual(b);
      }),
    );
  });

  it('gives no operation between a snapshot and itself, or the same with its keys reordered', () => {
    fc.assert(
      fc.property(fc.oneof(controlArb, settingsArb), (a) => {
        expect(jsonPatch(a, a)).toEqual([]);
        expect(jsonPatch(a, keysReversed(a))).toEqual([]);
      }),
    );
  });

  it('leaves the document it applies a patch to as it was', () => {
    fc.assert(
      fc.property(fc.oneof(controlPairArb, settingsPairArb), ([a, b]) => {
        const copy = copyOf(a);
        const result = applyJsonPatch(a, jsonPatch(a, b));
        expect(a).toStrictEqual(copy);
        expect(result).not.toBe(a);
      }),
    );
  });
});

describe('controlChanges', () => {
  it('says nothing exactly when two controls are equal as JSON, and something otherwise', () => {
    fc.assert(
      fc.property(controlPairArb, fc.boolean(), ([a, b], named) => {
        const changes = controlChanges(a, b, named ? names : undefined);
        expect(changes.length === 0).toBe(equalAsJson(a, b));
      }),
      { numRuns: 1000 },
    );
  });

  it('never says that something became itself, even where two variants or targets share a name', () => {
    fc.assert(
      fc.property(controlPairArb, ([a, b]) => {
        for (const sentence of controlChanges(a, b, names)) {
          const [from, to] = sentence.slice(sentence.indexOf(': ') + 2).split(' became ');
          if (to !== undefined) expect(from).not.toBe(to);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('describes a first version in one sentence', () => {
    fc.assert(
      fc.property(controlArb, (a) => {
        expect(controlChanges(null, a, names)).toHaveLength(1);
      }),
    );
  });
});

describe('featureSettingsChanges', () => {
  it('says nothing exactly when two settings are equal as JSON, and something otherwise', () => {
    fc.assert(
      fc.property(settingsPairArb, ([a, b]) => {
        expect(featureSettingsChanges(a, b).length === 0).toBe(equalAsJson(a, b));
      }),
      { numRuns: 1000 },
    );
  });
});
