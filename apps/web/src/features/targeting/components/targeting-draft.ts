import {
  MULTI_VALUE_OPERATORS,
  OPERATORS_BY_TARGET_TYPE,
  rebalanceSplits,
  type Operator,
  type Rule,
  type TargetType,
  type VariantSplit,
} from '@vexil/core';

/*
 * The Targeting editor's working copy of a control. Rules and conditions carry ids so that React keeps
 * their inputs (and focus) while they move; the ELSE rule is kept apart, since it never moves.
 */

export type ConditionValue = string | number | boolean;

export type ConditionDraft = {
  id: string;
  target: string;
  operator: Operator | null;
  /** As typed: blank strings are dropped and numbers parsed when the condition is checked. */
  values: ConditionValue[];
};

/** What a rule serves: one variant at 100 %, or a split over every variant of the feature. */
export type ServeDraft = {
  split: boolean;
  variantKey: string | null;
  /** One entry per variant of the feature, in the feature's order; kept while `split` is off. */
  splits: VariantSplit[];
};

export type RuleDraft = { id: string; conditions: ConditionDraft[]; serve: ServeDraft };

export type TargetingDraft = {
  enabled: boolean;
  offVariantKey: string | null;
  /** The targeted rules in order; the ELSE rule comes after them. */
  rules: RuleDraft[];
  fallback: ServeDraft;
};

/** The id of the ELSE rule, wherever a rule id is expected. */
export const FALLBACK_ID = 'fallback';

let lastId = 0;
function newId(prefix: string): string {
  lastId += 1;
  return `${prefix}${lastId}`;
}

/** The operator a condition starts with once its target's type is known. */
export const DEFAULT_OPERATOR: Readonly<Record<TargetType, Operator>> = {
  string: 'equals',
  number: 'equals',
  date: 'after',
  segment: 'in',
};

/** Splits shared as evenly as whole percentages allow (first variants get the remainder). */
export function evenSplits(variantKeys: readonly string[]): VariantSplit[] {
  const zero = variantKeys.map((variantKey) => ({ variantKey, split: 0 }));
  if (zero.length === 0) return [];
  return rebalanceSplits(zero, 0, Math.ceil(100 / zero.length));
}

/** A serve editor's state from a rule's wire splits. */
export function serveFromSplits(splits: readonly VariantSplit[], variantKeys: readonly string[]): ServeDraft {
  const given = splits.filter((split) => split.split > 0);
  const single = given.length === 1 && given[0]!.split === 100;
  const largest = [...given].sort((a, b) => b.split - a.split)[0];
  const spread = variantKeys.map((variantKey) => ({
    variantKey,
    split: splits.find((split) => split.variantKey === variantKey)?.split ?? 0,
  }));
  const total = spread.reduce((sum, split) => sum + split.split, 0);
  return {
    split: !single && given.length > 0,
    variantKey: largest?.variantKey ?? splits[0]?.variantKey ?? null,
    splits: single || total !== 100 ? evenSplits(variantKeys) : spread,
  };
}

/** A serve editor that gives everyone `variantKey`. */
export function singleServe(variantKey: string | null, variantKeys: readonly string[]): ServeDraft {
  return { split: false, variantKey, splits: evenSplits(variantKeys) };
}

export function emptyCondition(): ConditionDraft {
  return { id: newId('c'), target: '', operator: null, values: [] };
}

/** The control's switch, off variant and rules, as the editor shows them. */
export function draftFromControl(
  control: { enabled: boolean; offVariantKey: string; rules: readonly Rule[] },
  variantKeys: readonly string[],
): TargetingDraft {
  const fallbackRule = control.rules.find((rule) => rule.defaultRule);
  return {
    enabled: control.enabled,
    offVariantKey: control.offVariantKey,
    rules: control.rules
      .filter((rule) => !rule.defaultRule)
      .map((rule) => ({
        id: newId('r'),
        conditions: (rule.audience?.conditions ?? []).map((condition) => ({
          id: newId('c'),
          target: condition.target,
          operator: condition.operator,
          values: [...condition.values],
        })),
        serve: serveFromSplits(rule.variantSplits, variantKeys),
      })),
    fallback: fallbackRule
      ? serveFromSplits(fallbackRule.variantSplits, variantKeys)
      : singleServe(variantKeys[0] ?? null, variantKeys),
  };
}

/** The wire splits of a serve editor: `[{variant, 100}]`, or every variant's share. */
export function splitsOf(serve: ServeDraft): VariantSplit[] {
  if (serve.split) return serve.splits.map((split) => ({ ...split }));
  return [{ variantKey: serve.variantKey ?? '', split: 100 }];
}

/** What a serve editor gives, comparable: the variants with a share, by key. */
export function servedShares(serve: ServeDraft): string {
  return splitsOf(serve)
    .filter((split) => split.split > 0)
    .map((split) => `${split.variantKey}:${split.split}`)
    .sort()
    .join(',');
}

/** The draft without its ids, to tell whether two drafts say the same. */
export function draftSignature(draft: TargetingDraft): string {
  return JSON.stringify(draft, (name, value: unknown) => (name === 'id' ? undefined : value));
}

/** A new rule: one empty condition, serving a variant other than everyone else's when there is one. */
export function newRule(draft: TargetingDraft, variantKeys: readonly string[]): RuleDraft {
  const otherwise = draft.fallback.split ? null : draft.fallback.variantKey;
  const variantKey = variantKeys.find((key) => key !== otherwise) ?? variantKeys[0] ?? null;
  return { id: newId('r'), conditions: [emptyCondition()], serve: singleServe(variantKey, variantKeys) };
}

/** Moves the rule `id` by `delta` places among the targeted rules (never past either end). */
export function moveRule(rules: readonly RuleDraft[], id: string, delta: number): RuleDraft[] {
  const from = rules.findIndex((rule) => rule.id === id);
  const to = from + delta;
  if (from === -1 || to < 0 || to >= rules.length) return [...rules];
  const next = [...rules];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved!);
  return next;
}

/**
 * A condition after its target changes: a target of another type starts over with that type's usual
 * operator and no values; one of the same type keeps what was chosen.
 */
export function withTarget(
  condition: ConditionDraft,
  target: string,
  typeOf: (target: string) => TargetType,
): ConditionDraft {
  const type = typeOf(target);
  const sameType = condition.target !== '' && typeOf(condition.target) === type;
  if (sameType && condition.operator && OPERATORS_BY_TARGET_TYPE[type].includes(condition.operator)) {
    return { ...condition, target };
  }
  return { ...condition, target, operator: DEFAULT_OPERATOR[type], values: [] };
}

/** A condition after its operator changes: single-value operators keep only the first value. */
export function withOperator(condition: ConditionDraft, operator: Operator): ConditionDraft {
  const values = MULTI_VALUE_OPERATORS.includes(operator) ? condition.values : condition.values.slice(0, 1);
  return { ...condition, operator, values };
}

/** The serve editor switched to or from a split: a split starts even, a single variant is the largest share. */
export function withSplit(serve: ServeDraft, split: boolean, variantKeys: readonly string[]): ServeDraft {
  if (split === serve.split) return serve;
  if (split) {
    const splits = serve.splits.length === variantKeys.length ? serve.splits : evenSplits(variantKeys);
    return { ...serve, split, splits };
  }
  const largest = [...serve.splits].sort((a, b) => b.split - a.split)[0];
  return { ...serve, split, variantKey: largest?.variantKey ?? serve.variantKey };
}
