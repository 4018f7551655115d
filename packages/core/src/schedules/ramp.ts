/**
 * A ramp's arithmetic (docs/adr/0025-scheduler.md): the splits of the ramped rule at each step. The
 * variant comes first in the rule's splits, so that the users it covers are the buckets 1..coverage:
 * as the coverage grows, a user who got the variant keeps it (the buckets only ever grow). The rest of
 * the rule's users share the remainder in the proportions the rule gave the other variants before the
 * ramp began.
 */
import type { Rule, VariantSplit } from '../schemas/targeting';
import { share } from '../splits';

/** Why a rule cannot be ramped to a variant, or null when it can. */
export function rampProblem(rule: Rule | undefined, variantKey: string): string | null {
  if (!rule) return 'There is no such rule.';
  if (rule.variantSplits.every((split) => split.variantKey === variantKey))
    return 'The rule already serves this variant to every user; a ramp needs another variant to take users from.';
  return null;
}

/**
 * The splits that give `variantKey` `coverage` % of the rule, first, and share the rest among the
 * other variants of `base` in proportion to their shares there (evenly when they are all 0), in whole
 * percentages by largest remainder.
 */
export function rampSplits(
  base: readonly VariantSplit[],
  variantKey: string,
  coverage: number,
): VariantSplit[] {
  const others = base.filter((split) => split.variantKey !== variantKey);
  const shares = share(
    100 - coverage,
    others.map((_, i) => i),
    others.map((split) => split.split),
  );
  return [
    { variantKey, split: coverage },
    ...others.map((split, i) => ({ variantKey: split.variantKey, split: shares.get(i) ?? 0 })),
  ];
}

/** The rule `base` at a ramp's step: its audience as it was, its splits {@link rampSplits}. */
export function rampRule(base: Rule, variantKey: string, coverage: number): Rule {
  return { ...base, variantSplits: rampSplits(base.variantSplits, variantKey, coverage) };
}

/** The rules with rule `index` replaced. */
export function withRule(rules: readonly Rule[], index: number, rule: Rule): Rule[] {
  return rules.map((current, i) => (i === index ? rule : current));
}
