import {
  conditionForm,
  featureControlInput,
  ruleProblems,
  targetTypeOf,
  variantProblems,
  type Condition,
  type EvaluableControl,
  type FeatureControlInput,
  type FieldError,
  type Rule,
  type RuleContext,
  type TargetType,
} from '@vexil/core';
import {
  FALLBACK_ID,
  servedShares,
  splitsOf,
  type ConditionDraft,
  type TargetingDraft,
} from './targeting-draft';

/*
 * Errors are kept by the id of what they are about (`cond:c4:values`, `serve:r2`), not by wire
 * position, so a server error stays on its condition while rules move.
 */

export type ConditionPart = 'target' | 'operator' | 'values';

export const fieldKey = {
  condition: (conditionId: string, part: ConditionPart) => `cond:${conditionId}:${part}`,
  rule: (ruleId: string) => `rule:${ruleId}`,
  serve: (ruleId: string) => `serve:${ruleId}`,
  offVariant: 'offVariantKey',
  root: 'root',
} as const;

export type FieldErrors = ReadonlyMap<string, string>;

/** The editor key of a wire field path such as `rules.0.audience.conditions.1.values.0`. */
export function keyOfPath(path: string, draft: TargetingDraft): string {
  const parts = path.split('.');
  if (parts[0] === 'offVariantKey') return fieldKey.offVariant;
  if (parts[0] !== 'rules' || parts.length < 2) return fieldKey.root;
  const index = Number(parts[1]);
  const rule = draft.rules[index];
  const ruleId = rule?.id ?? (index === draft.rules.length ? FALLBACK_ID : null);
  if (ruleId === null) return fieldKey.root;
  if (parts[2] === 'variantSplits') return fieldKey.serve(ruleId);
  if (parts[2] === 'audience' && parts[3] === 'conditions' && parts[4] !== undefined) {
    const condition = rule?.conditions[Number(parts[4])];
    if (!condition) return fieldKey.rule(ruleId);
    const part = parts[5];
    return fieldKey.condition(condition.id, part === 'target' || part === 'operator' ? part : 'values');
  }
  return ruleId === FALLBACK_ID ? fieldKey.serve(ruleId) : fieldKey.rule(ruleId);
}

/** Field errors by editor key, the first message of each field kept. */
export function errorsByKey(errors: readonly FieldError[], draft: TargetingDraft): Map<string, string> {
  const byKey = new Map<string, string>();
  for (const { field, message } of errors) {
    const key = keyOfPath(field, draft);
    if (!byKey.has(key)) byKey.set(key, message);
  }
  return byKey;
}

/** "Rule 2, condition 1", "Otherwise (everyone else)", "Off variant": where a wire field is, in words. */
export function placeOfPath(path: string, draft: TargetingDraft): string | null {
  const parts = path.split('.');
  if (parts[0] === 'offVariantKey') return 'Off variant';
  if (parts[0] !== 'rules' || parts[1] === undefined) return null;
  const index = Number(parts[1]);
  if (index >= draft.rules.length) return 'Otherwise (everyone else)';
  const condition = parts[3] === 'conditions' && parts[4] !== undefined ? Number(parts[4]) : null;
  return condition === null ? `Rule ${index + 1}` : `Rule ${index + 1}, condition ${condition + 1}`;
}

export type ValidationContext = {
  controlId: string;
  featureKey: string;
  variantKeys: readonly string[];
  targetTypes: RuleContext['targetTypes'];
  /** Known once the environment's segments have loaded. */
  segmentKeys?: ReadonlySet<string> | undefined;
};

export type Validation = {
  errors: FieldErrors;
  /** The PUT body, when the draft has no error. */
  input: FeatureControlInput | null;
  /** The draft as the engine reads it; conditions that do not parse never match. */
  preview: EvaluableControl;
  /** Ids of targeted rules that serve exactly what the ELSE rule serves. */
  noEffect: ReadonlySet<string>;
  /** The switch, off variant and rules for describeRules. */
  wire: { enabled: boolean; offVariantKey: string; rules: Rule[] };
};

function typeOf(context: ValidationContext) {
  return (target: string): TargetType => targetTypeOf(target, context);
}

/** One condition row through core's conditionForm: a typed Condition, or its errors. */
function checkCondition(
  condition: ConditionDraft,
  targetType: TargetType,
  errors: Map<string, string>,
): Condition | null {
  const parsed = conditionForm.safeParse({
    target: condition.target,
    targetType,
    operator: condition.operator ?? undefined,
    values: condition.values,
  });
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) {
    const part = issue.path[0];
    if (part !== 'target' && part !== 'operator' && part !== 'values') continue;
    const key = fieldKey.condition(condition.id, part);
    if (!errors.has(key)) errors.set(key, issue.message);
  }
  return null;
}

/**
 * Checks a draft as the server will (docs/product.md §5, issue rules): each condition with core's conditionForm,
 * the whole with featureControlInput, then ruleProblems with the project's target types and the
 * environment's segments, and variantProblems: every variant named is one of the feature's.
 */
export function validateDraft(draft: TargetingDraft, context: ValidationContext): Validation {
  const errors = new Map<string, string>();
  const types = typeOf(context);
  const checked: Rule[] = [];
  const preview: Rule[] = [];
  for (const rule of draft.rules) {
    const conditions = rule.conditions.map((condition) => ({
      condition,
      parsed: checkCondition(condition, types(condition.target), errors),
    }));
    const variantSplits = splitsOf(rule.serve);
    checked.push({
      defaultRule: false,
      audience: {
        conditions: conditions.map(
          ({ condition, parsed }) =>
            parsed ?? {
              target: condition.target,
              operator: condition.operator ?? 'equals',
              values: condition.values,
            },
        ),
      },
      variantSplits,
    });
    preview.push({
      defaultRule: false,
      audience: {
        // `in` with no values never holds: a half-written condition matches nobody.
        conditions: conditions.map(
          ({ condition, parsed }) => parsed ?? { target: condition.target, operator: 'in', values: [] },
        ),
      },
      variantSplits,
    });
  }
  const fallback: Rule = { defaultRule: true, audience: null, variantSplits: splitsOf(draft.fallback) };
  checked.push(fallback);
  preview.push(fallback);

  const body = {
    id: context.controlId,
    enabled: draft.enabled,
    offVariantKey: draft.offVariantKey ?? '',
    rules: checked,
  };
  const whole = featureControlInput.safeParse(body);
  const problems: FieldError[] = whole.success
    ? []
    : whole.error.issues.map((issue) => ({
        field: issue.path.map(String).join('.'),
        message: issue.message,
      }));
  problems.push(...ruleProblems(checked, context));
  // Each field keeps its first message: a missing off variant says "Off variant is required".
  problems.push(
    ...variantProblems({ offVariantKey: body.offVariantKey, rules: checked }, context.variantKeys),
  );
  for (const [key, message] of errorsByKey(problems, draft)) if (!errors.has(key)) errors.set(key, message);

  const otherwise = servedShares(draft.fallback);
  const noEffect = new Set(
    draft.rules.filter((rule) => servedShares(rule.serve) === otherwise).map((rule) => rule.id),
  );
  const offVariantKey = draft.offVariantKey ?? '';
  return {
    errors,
    input: errors.size === 0 && whole.success ? whole.data : null,
    preview: { key: context.featureKey, enabled: draft.enabled, offVariantKey, rules: preview },
    noEffect,
    wire: { enabled: draft.enabled, offVariantKey, rules: checked },
  };
}
