import { describe, expect, it } from 'vitest';
import type { Rule } from '@vexil/core';
import {
  draftFromControl,
  draftSignature,
  moveRule,
  newRule,
  serveFromSplits,
  withOperator,
} from './targeting-draft';
import { keyOfPath, placeOfPath, validateDraft } from './targeting-validation';

const VARIANTS = ['on', 'off'];
const CONTEXT = {
  controlId: '00000000-0000-4000-8000-00000000c002',
  featureKey: 'checkout',
  variantKeys: VARIANTS,
  targetTypes: { age: 'number' as const, segments: 'segment' as const },
  segmentKeys: new Set(['beta-testers']),
};

const rules: Rule[] = [
  {
    defaultRule: false,
    audience: { conditions: [{ target: 'age', operator: 'greaterThan', values: [17] }] },
    variantSplits: [
      { variantKey: 'on', split: 30 },
      { variantKey: 'off', split: 70 },
    ],
  },
  { defaultRule: true, audience: null, variantSplits: [{ variantKey: 'off', split: 100 }] },
];

describe('the targeting draft', () => {
  it('reads a control and writes the same rules back', () => {
    const draft = draftFromControl({ enabled: true, offVariantKey: 'off', rules }, VARIANTS);
    expect(draft.rules[0]!.serve).toMatchObject({ split: true, splits: rules[0]!.variantSplits });
    expect(draft.fallback).toMatchObject({ split: false, variantKey: 'off' });
    const checked = validateDraft(draft, CONTEXT);
    expect(checked.errors.size).toBe(0);
    expect(checked.input?.rules).toEqual(rules);
  });

  it('reads one variant at 100 % as a single variant, even with 0 % entries', () => {
    const serve = serveFromSplits(
      [
        { variantKey: 'on', split: 100 },
        { variantKey: 'off', split: 0 },
      ],
      VARIANTS,
    );
    expect(serve).toMatchObject({ split: false, variantKey: 'on' });
  });

  it('tells drafts apart by content, not ids', () => {
    const control = { enabled: true, offVariantKey: 'off', rules };
    expect(draftSignature(draftFromControl(control, VARIANTS))).toBe(
      draftSignature(draftFromControl(control, VARIANTS)),
    );
  });

  it('moves rules within bounds', () => {
    const draft = draftFromControl({ enabled: true, offVariantKey: 'off', rules }, VARIANTS);
    const two = [...draft.rules, newRule(draft, VARIANTS)];
    expect(moveRule(two, two[1]!.id, -1).map((r) => r.id)).toEqual([two[1]!.id, two[0]!.id]);
    expect(moveRule(two, two[0]!.id, -1).map((r) => r.id)).toEqual(two.map((r) => r.id));
  });

  it('starts a new rule on a variant other than everyone else’s', () => {
    const draft = draftFromControl({ enabled: true, offVariantKey: 'off', rules }, VARIANTS);
    expect(newRule(draft, VARIANTS).serve.variantKey).toBe('on');
  });

  it('keeps one value when the operator stops taking several', () => {
    const condition = { id: 'c', target: 'email', operator: 'in' as const, values: ['a', 'b'] };
    expect(withOperator(condition, 'equals').values).toEqual(['a']);
  });

  it('maps wire paths onto the editor’s fields and says where they are', () => {
    const draft = draftFromControl({ enabled: true, offVariantKey: 'off', rules }, VARIANTS);
    const [rule] = draft.rules;
    const condition = rule!.conditions[0]!;
    expect(keyOfPath('rules.0.audience.conditions.0.values.0', draft)).toBe(`cond:${condition.id}:values`);
    expect(keyOfPath('rules.0.audience.conditions.0.operator', draft)).toBe(`cond:${condition.id}:operator`);
    expect(keyOfPath('rules.0.variantSplits', draft)).toBe(`serve:${rule!.id}`);
    expect(keyOfPath('rules.1.variantSplits', draft)).toBe('serve:fallback');
    expect(keyOfPath('offVariantKey', draft)).toBe('offVariantKey');
    expect(keyOfPath('rules', draft)).toBe('root');
    expect(placeOfPath('rules.0.audience.conditions.0.values.0', draft)).toBe('Rule 1, condition 1');
    expect(placeOfPath('rules.1.variantSplits', draft)).toBe('Otherwise (everyone else)');
  });

  it('reports unknown segments and rules with no effect', () => {
    const draft = draftFromControl(
      {
        enabled: true,
        offVariantKey: 'off',
        rules: [
          {
            defaultRule: false,
            audience: { conditions: [{ target: 'segments', operator: 'in', values: ['gone'] }] },
            variantSplits: [{ variantKey: 'off', split: 100 }],
          },
          rules[1]!,
        ],
      },
      VARIANTS,
    );
    const checked = validateDraft(draft, CONTEXT);
    expect([...checked.errors.values()]).toEqual(['There is no segment "gone" in this environment.']);
    expect(checked.input).toBeNull();
    expect(checked.noEffect.has(draft.rules[0]!.id)).toBe(true);
  });
});
