/**
 * Rules checked against what only the project knows (its targets' types, the environment's
 * segments), and the split editor's arithmetic. The same functions run in the rule editor and on
 * the server, so a control the editor accepts is one the server stores.
 */
import { isValidPattern } from './pattern';
import type { FieldError } from './schemas/common';
import type { Condition, Rule, VariantSplit } from './schemas/targeting';
import { MULTI_VALUE_OPERATORS, OPERATORS_BY_TARGET_TYPE, type TargetType } from './schemas/targets';

/** Attributes every SDK adds to the user (docs/sdk-protocol.md §9.1), with their types. */
export const BUILT_IN_TARGETS: Readonly<Record<string, TargetType>> = {
  'featureflow.user.id': 'string',
  'featureflow.date': 'date',
  'featureflow.hourofday': 'number',
};

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** A date a `before`/`after` condition accepts: ISO 8601, a calendar date that exists. */
export function isIsoDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const [year, month, day] = value.slice(0, 10).split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    Number.isFinite(Date.parse(value.length === 10 ? `${value}T00:00:00Z` : utcDateText(value)))
  );
}

const HAS_OFFSET = /(?:Z|[+-]\d{2}:?\d{2})$/;

/**
 * An ISO date-time without an offset names a UTC time, on every server and in every SDK
 * (docs/sdk-protocol.md §9.2): `2026-07-03T10:00` and `2026-07-03 10:00` become
 * `2026-07-03T10:00:00Z` (RFC 3339, which Go's SDK requires). A date alone (UTC midnight everywhere)
 * and a value with an offset are returned as they are.
 */
export function utcDateText(value: string): string {
  if (value.length <= 10 || HAS_OFFSET.test(value)) return value;
  const time = value.slice(11);
  return `${value.slice(0, 10)}T${time.length === 5 ? `${time}:00` : time}Z`;
}

/**
 * Rules as SDKs receive them: `before`/`after` values that are offset-less ISO date-times get `Z`
 * ({@link utcDateText}), so an SDK that would read them in its host's time zone reads UTC. Rules
 * without such a value are returned as they are (the same objects).
 */
export function rulesWithUtcDates<R extends Rule>(rules: readonly R[]): R[] {
  return rules.map((rule) => {
    const conditions = rule.audience?.conditions;
    if (!conditions?.some(hasLocalDate)) return rule;
    return {
      ...rule,
      audience: {
        ...rule.audience,
        conditions: conditions.map((condition) =>
          hasLocalDate(condition)
            ? {
                ...condition,
                values: condition.values.map((v) =>
                  typeof v === 'string' && isIsoDate(v) ? utcDateText(v) : v,
                ),
              }
            : condition,
        ),
      },
    };
  });
}

function hasLocalDate(condition: Condition): boolean {
  return (
    (condition.operator === 'before' || condition.operator === 'after') &&
    condition.values.some((v) => typeof v === 'string' && isIsoDate(v) && utcDateText(v) !== v)
  );
}

export type RuleContext = {
  /** Declared targets of the project by key; undeclared attributes are strings. */
  targetTypes: Readonly<Record<string, TargetType>>;
  /** Segment keys of the environment; when given, segment conditions must name existing ones. */
  segmentKeys?: ReadonlySet<string>;
};

/** The type of a target key: declared, built in, or string. */
export function targetTypeOf(target: string, context: RuleContext): TargetType {
  return context.targetTypes[target] ?? BUILT_IN_TARGETS[target] ?? 'string';
}

/**
 * Problems of a rule set that its shape alone does not show (docs/product.md §5): every rule but
 * the default has a condition; operators fit the target's type; values are typed (numbers, ISO
 * dates, RE2 patterns, known segments); single-value operators carry one value. Fields are dotted
 * paths such as `rules.0.audience.conditions.1.values`.
 */
export function ruleProblems(rules: readonly Rule[], context: RuleContext): FieldError[] {
  const problems: FieldError[] = [];
  rules.forEach((rule, r) => {
    if (rule.defaultRule) return;
    const conditions = rule.audience?.conditions ?? [];
    if (conditions.length === 0) {
      problems.push({
        field: `rules.${r}.audience.conditions`,
        message: 'A rule needs at least one condition.',
      });
    }
    conditions.forEach((condition, c) => {
      const at = `rules.${r}.audience.conditions.${c}`;
      const type = targetTypeOf(condition.target, context);
      if (!OPERATORS_BY_TARGET_TYPE[type].includes(condition.operator)) {
        problems.push({
          field: `${at}.operator`,
          message: `"${condition.operator}" does not apply to the ${type} target "${condition.target}".`,
        });
        return;
      }
      if (!MULTI_VALUE_OPERATORS.includes(condition.operator) && condition.values.length > 1) {
        problems.push({ field: `${at}.values`, message: `"${condition.operator}" takes one value.` });
      }
      condition.values.forEach((value, v) => {
        const field = `${at}.values.${v}`;
        if (type === 'number' && (typeof value !== 'number' || !Number.isFinite(value))) {
          problems.push({ field, message: 'Must be a number' });
        } else if (type === 'date' && (typeof value !== 'string' || !isIsoDate(value))) {
          problems.push({ field, message: 'Must be a date' });
        } else if ((type === 'string' || type === 'segment') && typeof value !== 'string') {
          problems.push({ field, message: 'Must be text' });
        } else if (condition.operator === 'matches' && typeof value === 'string' && !isValidPattern(value)) {
          problems.push({ field, message: 'Must be a valid pattern' });
        } else if (
          type === 'segment' &&
          context.segmentKeys &&
          typeof value === 'string' &&
          !context.segmentKeys.has(value)
        ) {
          problems.push({ field, message: `There is no segment "${value}" in this environment.` });
        }
      });
    });
  });
  return problems;
}

function clampPercent(value: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.min(100, Math.max(0, Math.round(value)));
}

/**
 * The split editor (docs/product.md §5 "Splits clamp to 0-100 and rebalance to sum 100"): sets the split at
 * `index` to `value` clamped to a whole 0..100, then shares what remains among the other variants
 * in proportion to their current splits (evenly when they are all 0), rounding by largest
 * remainder. The result always sums to 100; the edited split keeps its value unless it is the only
 * variant.
 */
export function rebalanceSplits(
  splits: readonly VariantSplit[],
  index: number,
  value: number,
): VariantSplit[] {
  if (splits.length === 0) return [];
  if (splits.length === 1) return [{ variantKey: splits[0]!.variantKey, split: 100 }];
  const edited = clampPercent(value);
  const remaining = 100 - edited;
  const others = splits.map((split, i) => ({ i, weight: i === index ? 0 : Math.max(0, split.split) }));
  const otherIndexes = others.filter((o) => o.i !== index);
  const totalWeight = otherIndexes.reduce((sum, o) => sum + o.weight, 0);
  const shares = otherIndexes.map((o) => {
    const exact = totalWeight > 0 ? (remaining * o.weight) / totalWeight : remaining / otherIndexes.length;
    return { i: o.i, floor: Math.floor(exact), fraction: exact - Math.floor(exact) };
  });
  let leftover = remaining - shares.reduce((sum, s) => sum + s.floor, 0);
  const byFraction = [...shares].sort((a, b) => b.fraction - a.fraction || a.i - b.i);
  for (const share of byFraction) {
    if (leftover <= 0) break;
    share.floor += 1;
    leftover -= 1;
  }
  const result = new Map(shares.map((s) => [s.i, s.floor]));
  return splits.map((split, i) => ({
    variantKey: split.variantKey,
    split: i === index ? edited : result.get(i)!,
  }));
}

/**
 * Whether a control names only its feature's variants: the off variant, and every variant a rule
 * splits users between. The editor and the server both report these, in these words.
 */
export function variantProblems(
  control: { offVariantKey: string; rules: readonly Pick<Rule, 'variantSplits'>[] },
  variantKeys: Iterable<string>,
): FieldError[] {
  const known = new Set(variantKeys);
  const problems: FieldError[] = [];
  if (!known.has(control.offVariantKey)) {
    problems.push({
      field: 'offVariantKey',
      message: 'The off variant must be one of the feature’s variants.',
    });
  }
  control.rules.forEach((rule, index) => {
    const unknown = rule.variantSplits.find((split) => split.variantKey && !known.has(split.variantKey));
    if (unknown) {
      problems.push({
        field: `rules.${index}.variantSplits`,
        message: `"${unknown.variantKey}" is not a variant of this feature.`,
      });
    }
  });
  return problems;
}
