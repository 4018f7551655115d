import { ANONYMOUS_USER_ID, DEFAULT_SALT, bucketWith, type KeyDigest } from './bucket';
import { satisfies, type Value } from './operators';

/** A user as SDKs and OFREP describe one: an id and attributes (scalars or lists of them). */
export type EvaluationUser = {
  id?: string | null;
  attributes?: Readonly<Record<string, unknown>> | null;
};

/** What the engine needs of a control: the SDK FeatureControl shape (docs/sdk-protocol.md §8). */
export type EvaluableControl = {
  key: string;
  enabled: boolean;
  offVariantKey: string;
  salt?: string | null;
  rules: readonly EvaluableRule[];
};

export type EvaluableRule = {
  defaultRule?: boolean;
  audience?: {
    conditions?: readonly { target: string; operator: string; values: readonly Value[] }[];
  } | null;
  variantSplits: readonly { variantKey: string; split: number }[];
};

/**
 * Why a variant was chosen, in OFREP's words where they exist: DISABLED (the control is off),
 * TARGETING_MATCH (a targeted rule gave one variant), SPLIT (a rule's percentages chose it),
 * DEFAULT (the ELSE rule gave one variant), NO_MATCH (no rule matched: the off variant), ERROR
 * (the control could not be read: the off variant).
 */
export type EvaluationReason = 'DISABLED' | 'TARGETING_MATCH' | 'SPLIT' | 'DEFAULT' | 'NO_MATCH' | 'ERROR';

export type Evaluation = {
  variant: string;
  reason: EvaluationReason;
  /** Index of the rule that matched, or null. */
  ruleIndex: number | null;
};

/** Returned when a matched rule's splits sum to less than the user's bucket (docs/sdk-protocol.md §9.1 step 5). */
export const UNALLOCATED_VARIANT = 'off';

/** What `valueOf` gives for a target the user has no value for. */
const MISSING = Symbol('missing');

/**
 * A user's value for a target: a scalar, a list of them, or MISSING (absent, null or undefined).
 * Not wrapped in a list: this runs for every condition of every evaluation.
 */
function valueOf(user: EvaluationUser, target: string, now: Date, userId: string): unknown {
  switch (target) {
    case 'featureflow.user.id':
      return userId;
    case 'featureflow.date':
      return now.toISOString();
    case 'featureflow.hourofday':
      // The server cannot know the user's time zone: UTC, as the .NET SDK does.
      return now.getUTCHours();
  }
  const attributes = user.attributes;
  if (!attributes || typeof attributes !== 'object' || !Object.hasOwn(attributes, target)) return MISSING;
  const value = attributes[target];
  return value === null || value === undefined ? MISSING : value;
}

function isDefault(rule: EvaluableRule): boolean {
  return rule.defaultRule === true || rule.audience === null || rule.audience === undefined;
}

export type EvaluableCondition = { target: string; operator: string; values: readonly Value[] };

/**
 * A condition holds when any of the user's values for its target satisfies it (a scalar counts as
 * a one-element list); a missing attribute fails.
 */
export function conditionHolds(
  condition: EvaluableCondition,
  user: EvaluationUser,
  now: Date,
  userId: string,
): boolean {
  const values = Array.isArray(condition.values) ? condition.values : [];
  const own = valueOf(user, condition.target, now, userId);
  if (own === MISSING) return false;
  if (!Array.isArray(own)) return satisfies(condition.operator, own as Value, values);
  for (const value of own as readonly Value[]) {
    if (satisfies(condition.operator, value, values)) return true;
  }
  return false;
}

function matches(rule: EvaluableRule, user: EvaluationUser, now: Date, userId: string): boolean {
  if (isDefault(rule)) return true;
  for (const condition of rule.audience?.conditions ?? []) {
    if (!conditionHolds(condition, user, now, userId)) return false;
  }
  return true;
}

/** The id rules and bucketing use: the user's, or `anonymous` when empty. */
export function userIdOf(user: EvaluationUser): string {
  return typeof user.id === 'string' && user.id !== '' ? user.id : ANONYMOUS_USER_ID;
}

/**
 * The variant a matched rule gives: its only variant when one split has everything, else the
 * user's bucket among its splits, hashed with `digest`.
 */
export function ruleVariant(
  digest: KeyDigest,
  control: Pick<EvaluableControl, 'key' | 'salt'>,
  rule: EvaluableRule,
  userId: string,
): { variant: string; split: boolean } {
  const splits = rule.variantSplits;
  let given = 0;
  let total = 0;
  let only: string | null = null;
  for (const split of splits) {
    total += split.split;
    if (split.split > 0) {
      given += 1;
      only = split.variantKey;
    }
  }
  if (given === 1 && total >= 100) return { variant: only!, split: false };
  const bucket = bucketWith(digest, control.salt || DEFAULT_SALT, control.key, userId);
  return { variant: variantForBucket(splits, bucket), split: true };
}

/**
 * The variant a bucket (1..100) falls in: the first whose running total of splits reaches it;
 * the literal `off` when the splits sum to less than the bucket.
 */
export function variantForBucket(splits: EvaluableRule['variantSplits'], bucket: number): string {
  let cumulative = 0;
  for (const split of splits) {
    cumulative += split.split;
    if (cumulative >= bucket) return split.variantKey;
  }
  return UNALLOCATED_VARIANT;
}

/**
 * Evaluates one control for one user at `now` (docs/sdk-protocol.md §9): off when disabled; otherwise the
 * first rule in order whose conditions all hold (the default rule always does), then the variant
 * whose cumulative split first reaches the user's bucket (hashed with `digest`). Pure, and never
 * throws: a control it cannot read gives its off variant with reason ERROR. Callers go through an
 * evaluator (evaluator.ts), which holds the digest.
 */
export function evaluateWith(
  digest: KeyDigest,
  control: EvaluableControl,
  user: EvaluationUser,
  now: Date,
): Evaluation {
  try {
    if (!control.enabled) return { variant: control.offVariantKey, reason: 'DISABLED', ruleIndex: null };
    const userId = userIdOf(user);
    const rules = control.rules;
    for (let index = 0; index < rules.length; index++) {
      const rule = rules[index]!;
      if (!matches(rule, user, now, userId)) continue;
      const { variant, split } = ruleVariant(digest, control, rule, userId);
      const reason = split ? 'SPLIT' : isDefault(rule) ? 'DEFAULT' : 'TARGETING_MATCH';
      return { variant, reason, ruleIndex: index };
    }
    return { variant: control.offVariantKey, reason: 'NO_MATCH', ruleIndex: null };
  } catch {
    const off = typeof control?.offVariantKey === 'string' ? control.offVariantKey : UNALLOCATED_VARIANT;
    return { variant: off, reason: 'ERROR', ruleIndex: null };
  }
}
