import type { KeyDigest } from './bucket';
import {
  conditionHolds,
  ruleVariant,
  userIdOf,
  type EvaluableCondition,
  type EvaluableControl,
  type EvaluationUser,
} from './engine';

/** Attributes only the browser knows at evaluation time (docs/sdk-protocol.md §6.1). */
export const CLIENT_TIME_TARGETS: ReadonlySet<string> = new Set([
  'featureflow.date',
  'featureflow.hourofday',
]);

/** One rule of the browser payload: a variant, with the time conditions still to test on the device. */
export type ClientRule = {
  audience?: { conditions: EvaluableCondition[] };
  variant: string;
  value?: unknown;
};

/**
 * What the JS client endpoint sends for one feature and user (docs/sdk-protocol.md §6.1, the object form):
 * the server tests every condition it can, and leaves only date and hour conditions for the device,
 * which knows its own clock. Disabled: the off variant. A rule with no time conditions ends the
 * list; otherwise the walk continues and the off variant closes it. Buckets are hashed with `digest`
 * (callers go through an evaluator, evaluator.ts).
 */
export function clientRulesWith(
  digest: KeyDigest,
  control: EvaluableControl,
  user: EvaluationUser,
  now: Date,
  valueOf: (variant: string) => unknown = () => undefined,
): { rules: ClientRule[] } {
  const withValue = (rule: ClientRule): ClientRule => {
    const value = valueOf(rule.variant);
    return value === undefined ? rule : { ...rule, value };
  };
  try {
    if (!control.enabled) return { rules: [withValue({ variant: control.offVariantKey })] };
    const userId = userIdOf(user);
    const rules: ClientRule[] = [];
    for (const rule of control.rules) {
      const conditions = rule.defaultRule || !rule.audience ? [] : (rule.audience.conditions ?? []);
      const timeConditions = conditions.filter((c) => CLIENT_TIME_TARGETS.has(c.target));
      const others = conditions.filter((c) => !CLIENT_TIME_TARGETS.has(c.target));
      if (!others.every((condition) => conditionHolds(condition, user, now, userId))) continue;
      const { variant } = ruleVariant(digest, control, rule, userId);
      if (timeConditions.length === 0) {
        rules.push(withValue({ variant }));
        return { rules };
      }
      rules.push(withValue({ audience: { conditions: timeConditions.map((c) => ({ ...c })) }, variant }));
    }
    rules.push(withValue({ variant: control.offVariantKey }));
    return { rules };
  } catch {
    return { rules: [{ variant: control.offVariantKey }] };
  }
}
