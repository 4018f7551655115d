import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clientRules, evaluate, pureEvaluator, type EvaluationUser } from '@vexil/core';
import type { ControlRule } from '../db/schema/index';
import { isOfrepError, joinItems, jsItem, ofrepItem, ofrepValueOf } from './answer-items';
import type { ControlRow, VariantRow } from './sdk.repository';
import { entryOf } from './sdk-store';

const VARIANTS = ['on', 'off', 'blue', 'green'];

const valueArb = fc.oneof(fc.string(), fc.integer({ min: 0, max: 100 }), fc.boolean());
const conditionArb = fc.record({
  target: fc.constantFrom('tier', 'age', 'featureflow.user.id', 'featureflow.date', 'featureflow.hourofday'),
  operator: fc.constantFrom('equals', 'notEquals', 'greaterThan', 'lessThan', 'contains', 'before', 'after'),
  values: fc.array(valueArb, { minLength: 1, maxLength: 3 }),
});
const splitsArb = fc.array(
  fc.record({ variantKey: fc.constantFrom(...VARIANTS), split: fc.integer({ min: 0, max: 100 }) }),
  { minLength: 1, maxLength: 3 },
);
const ruleArb = fc.record({
  defaultRule: fc.boolean(),
  audience: fc.option(fc.record({ conditions: fc.array(conditionArb, { maxLength: 3 }) }), { nil: null }),
  variantSplits: splitsArb,
});
const rowArb = fc.record({
  controlId: fc.constant('00000000-0000-4000-8000-000000000001'),
  featureId: fc.constant('00000000-0000-4000-8000-000000000002'),
  key: fc.string({ minLength: 1, maxLength: 12 }),
  enabled: fc.boolean(),
  offVariantKey: fc.constantFrom(...VARIANTS),
  inClientApi: fc.constant(true),
  rules: fc.array(ruleArb, { maxLength: 4 }),
});
const variantsArb = fc.subarray(VARIANTS, { minLength: 1 }).chain((keys) =>
  fc.tuple(
    ...keys.map((key) =>
      fc.record({
        featureId: fc.constant('00000000-0000-4000-8000-000000000002'),
        key: fc.constant(key),
        name: fc.constant(key),
        value: fc.option(fc.oneof(valueArb, fc.dictionary(fc.string(), valueArb)), { nil: null }),
      }),
    ),
  ),
);
const userArb = fc.record({
  id: fc.option(fc.string({ maxLength: 8 }), { nil: null }),
  attributes: fc.record({ tier: fc.constantFrom('gold', 'silver'), age: fc.integer({ min: 0, max: 100 }) }),
});
const atArb = fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true });

/** The answers' parts as the routes made them before they were kept per outcome. */
function jsReference(entry: ReturnType<typeof entryOf>, user: EvaluationUser, at: Date) {
  const evaluated = clientRules(entry.control, user, at, (variant) => entry.values.get(variant));
  return `${entry.keyJson}:${JSON.stringify(evaluated)}`;
}

function ofrepReference(entry: ReturnType<typeof entryOf>, user: { id: string | null }, at: Date) {
  const result = evaluate(entry.control, user, at);
  if (result.reason === 'SPLIT' && !user.id)
    return { key: entry.control.key, errorCode: 'TARGETING_KEY_MISSING' };
  const reasons: Record<string, string> = { NO_MATCH: 'DEFAULT', ERROR: 'UNKNOWN' };
  return {
    key: entry.control.key,
    value: ofrepValueOf(entry, result.variant),
    reason: reasons[result.reason] ?? result.reason,
    variant: result.variant,
    metadata: {},
  };
}

describe('answer items kept per outcome', () => {
  it('give every user of every control what evaluating afresh gives, whatever the order of users', () => {
    fc.assert(
      fc.property(
        rowArb,
        variantsArb,
        fc.array(fc.tuple(userArb, atArb), { minLength: 1, maxLength: 6 }),
        (row, variants, asks) => {
          const entry = entryOf(row as ControlRow & { rules: ControlRule[] }, variants as VariantRow[]);
          // The same entry answers every ask, so later asks may be served what earlier ones made.
          for (const [user, at] of asks) {
            expect(jsItem(pureEvaluator, entry, user, at).toString()).toBe(jsReference(entry, user, at));
            const item = ofrepItem(pureEvaluator, entry, { user, hasTargetingKey: !!user.id, now: at });
            const parsed = JSON.parse(item.toString()) as Record<string, unknown>;
            const expected = ofrepReference(entry, user, at);
            if ('errorCode' in expected) {
              expect(isOfrepError(entry, item)).toBe(true);
              expect({ key: parsed.key, errorCode: parsed.errorCode }).toEqual(expected);
            } else {
              expect(isOfrepError(entry, item)).toBe(false);
              expect(parsed).toEqual(expected);
            }
          }
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it('keeps one text per outcome, not one per user', () => {
    const entry = entryOf(
      {
        controlId: '00000000-0000-4000-8000-000000000001',
        featureId: '00000000-0000-4000-8000-000000000002',
        key: 'checkout',
        enabled: true,
        offVariantKey: 'off',
        inClientApi: true,
        rules: [
          {
            defaultRule: true,
            audience: null,
            variantSplits: [
              { variantKey: 'off', split: 50 },
              { variantKey: 'on', split: 50 },
            ],
          },
        ] as ControlRule[],
      },
      [],
    );
    const at = new Date();
    for (let i = 0; i < 1_000; i++) {
      jsItem(pureEvaluator, entry, { id: `user-${i}` }, at);
      ofrepItem(pureEvaluator, entry, { user: { id: `user-${i}` }, hasTargetingKey: true, now: at });
    }
    // Two variants for the JS client, two (SPLIT on and off) for OFREP.
    expect(entry.items.get('js')?.size).toBe(2);
    expect(entry.items.get('SPLIT')?.size).toBe(2);
    expect(entry.items.size).toBe(2);
  });

  it('joins items into exactly the bytes of the joined text', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme' }),
        fc.array(fc.string({ unit: 'grapheme' })),
        fc.string(),
        (open, items, close) => {
          const joined = joinItems(
            open,
            items.map((item) => Buffer.from(item)),
            close,
          );
          expect(joined.equals(Buffer.from(`${open}${items.join(',')}${close}`))).toBe(true);
        },
      ),
    );
  });
});
