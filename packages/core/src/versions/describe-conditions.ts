import { targetTypeOf } from '../rules';
import type { Audience, Condition, ConditionValue, VariantSplit } from '../schemas/targeting';
import type { Operator, TargetType } from '../schemas/targets';

/*
 * How people read targeting: the words of the rule editor, the read-only targeting view and the
 * history's sentences, kept once here so that the dashboard and the server say the same thing.
 */

/** Operators as a sentence reads them: `email ends with …`, `age is at least …`. */
export const OPERATOR_LABELS: Readonly<Record<Operator, string>> = {
  equals: 'equals',
  contains: 'contains',
  startsWith: 'starts with',
  endsWith: 'ends with',
  matches: 'matches the pattern',
  in: 'is one of',
  notIn: 'is not one of',
  greaterThan: 'is more than',
  greaterThanOrEqual: 'is at least',
  lessThan: 'is less than',
  lessThanOrEqual: 'is at most',
  before: 'is before',
  after: 'is after',
};

/** A segment target's two operators read differently: the user is (not) in a segment. */
export const SEGMENT_OPERATOR_LABELS: Readonly<Partial<Record<Operator, string>>> = {
  in: 'is in',
  notIn: 'is not in',
};

/** The words of `operator` on a target of type `type`: `is one of`, or `is in` for a segment. */
export function operatorText(operator: Operator, type: TargetType): string {
  return (type === 'segment' ? SEGMENT_OPERATOR_LABELS[operator] : undefined) ?? OPERATOR_LABELS[operator];
}

/** Names of the attributes every SDK adds (docs/sdk-protocol.md §9.1). */
export const BUILT_IN_TARGET_NAMES: Readonly<Record<string, string>> = {
  'featureflow.user.id': 'User id',
  'featureflow.date': 'Current date',
  'featureflow.hourofday': 'Hour of the day',
};

/** A condition value as typed: strings quoted only when they would otherwise be ambiguous. */
export function conditionValueLabel(value: ConditionValue): string {
  if (typeof value !== 'string') return String(value);
  return value === '' || value.trim() !== value || value.includes(',') ? JSON.stringify(value) : value;
}

/** "100% On" / "50% On, 50% Off", with variant names where known. */
export function splitsLabel(splits: readonly VariantSplit[], nameOf: (key: string) => string): string {
  return splits.map((split) => `${split.split}% ${nameOf(split.variantKey)}`).join(', ');
}

/**
 * What a rule serves, as core's describeRules words it: `On` when one variant gets everyone,
 * `50% On, 50% Off` otherwise (variants given 0% left out).
 */
export function servesText(splits: readonly VariantSplit[], nameOf: (key: string) => string): string {
  const given = splits.filter((split) => split.split > 0);
  if (given.length === 1) return nameOf(given[0]!.variantKey);
  return splitsLabel(given, nameOf);
}

/** What the project calls its targets: key → name and key → type. Unknown keys read as the key. */
export type ConditionNames = {
  targets?: Readonly<Record<string, string>>;
  targetTypes?: Readonly<Record<string, TargetType>>;
};

/** The name people know a target by: the given name, a built-in attribute's name, or its key. */
export function targetLabel(key: string, names: ConditionNames = {}): string {
  return names.targets?.[key] ?? BUILT_IN_TARGET_NAMES[key] ?? key;
}

/**
 * One condition as a sentence: `Country is one of NZ, AU`, `Email ends with @acme.com`, and for a
 * segment target `User is in beta-testers` (the values are segment keys, shown as they are).
 */
export function conditionText(condition: Condition, names: ConditionNames = {}): string {
  const type = targetTypeOf(condition.target, { targetTypes: names.targetTypes ?? {} });
  const subject = type === 'segment' ? 'User' : targetLabel(condition.target, names);
  const operator = OPERATOR_LABELS[condition.operator]
    ? operatorText(condition.operator, type)
    : condition.operator;
  return `${subject} ${operator} ${condition.values.map(conditionValueLabel).join(', ')}`;
}

/** Who a rule is for: its conditions joined by `and`, or `everyone` when it has none. */
export function audienceText(audience: Audience | null, names: ConditionNames = {}): string {
  const conditions = audience?.conditions ?? [];
  if (conditions.length === 0) return 'everyone';
  return conditions.map((condition) => conditionText(condition, names)).join(' and ');
}
