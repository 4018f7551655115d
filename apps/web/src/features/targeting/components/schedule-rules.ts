import type { Rule } from '@vexil/core';

/**
 * A rule of a control as the Targeting tab calls it: "Everyone else" for the default rule (the last),
 * "Rule {n}" for the targeted ones, counted from 1. `index` is the rule's place in the control's rules,
 * as a ramp names it.
 */
export function ruleNameOf(rules: readonly Pick<Rule, 'defaultRule'>[], index: number): string {
  const rule = rules[index];
  if (!rule) return `Rule ${index + 1}`;
  if (rule.defaultRule) return 'Everyone else';
  return `Rule ${rules.slice(0, index).filter((other) => !other.defaultRule).length + 1}`;
}

/**
 * The places, in the control's rules, of the rules the editor shows: the targeted rules in order, then
 * the default rule (undefined when the control has none).
 */
export function savedRuleIndexes(rules: readonly Pick<Rule, 'defaultRule'>[]) {
  const targeted = rules.flatMap((rule, index) => (rule.defaultRule ? [] : [index]));
  const fallback = rules.findIndex((rule) => rule.defaultRule);
  return { targeted, fallback: fallback === -1 ? undefined : fallback };
}
