import { z } from 'zod';
import { KEY_MAX_LENGTH } from '../keys';
import { DAY_MS } from '../time';
import {
  MAX_LENGTH,
  basedOnVersion,
  dateTimeSchema,
  hasNoNul,
  idSchema,
  NUL_MESSAGE,
  optionalText,
  text,
  tooLongMessage,
} from './common';
import { MULTI_VALUE_OPERATORS, OPERATORS, OPERATORS_BY_TARGET_TYPE, TARGET_TYPES } from './targets';

/*
 * Feature controls and targeting rules, in the wire shape of docs/sdk-protocol.md §8 so a stored control
 * can be served to SDKs as it is.
 */

/** Most values one condition may list. */
export const MAX_CONDITION_VALUES = 1000;
/** Most conditions one audience may hold. */
export const MAX_CONDITIONS = 50;
/** Most variants one feature may have, and so one rule may split between. */
export const MAX_VARIANTS = 50;
/** Most rules one control may hold. */
export const MAX_RULES = 100;

const variantKeyRef = (required: string) => text({ max: KEY_MAX_LENGTH, required });

/** A condition value: SDKs require primitives (docs/sdk-protocol.md §8). Strings keep their spaces. */
export const conditionValueSchema = z.union([
  text({ max: MAX_LENGTH.conditionValue, trim: false }),
  z.number(),
  z.boolean(),
]);
/** Type of {@link conditionValueSchema}. */
export type ConditionValue = z.infer<typeof conditionValueSchema>;

/** One audience condition: `target operator values`. */
export const conditionSchema = z.object({
  target: text({ max: KEY_MAX_LENGTH, required: 'Required' }),
  operator: z.enum(OPERATORS, { error: 'Required' }),
  values: z
    .array(conditionValueSchema)
    .min(1, 'Value is required')
    .max(MAX_CONDITION_VALUES, `At most ${MAX_CONDITION_VALUES} values are allowed.`),
});
/** Type of {@link conditionSchema}. */
export type Condition = z.infer<typeof conditionSchema>;

/** An audience: every condition must hold (AND). */
export const audienceSchema = z.object({
  conditions: z
    .array(conditionSchema)
    .max(MAX_CONDITIONS, `At most ${MAX_CONDITIONS} conditions are allowed.`),
});
/** Type of {@link audienceSchema}. */
export type Audience = z.infer<typeof audienceSchema>;

/** Share of users given one variant: a whole percentage (Java and .NET SDKs reject decimals). */
export const variantSplitSchema = z.object({
  variantKey: variantKeyRef('Variant is required'),
  split: z
    .number({ error: 'Split must be a number' })
    .int('Split must be a whole number')
    .min(0, 'Split must be between 0 and 100')
    .max(100, 'Split must be between 0 and 100'),
});
/** Type of {@link variantSplitSchema}. */
export type VariantSplit = z.infer<typeof variantSplitSchema>;

/**
 * A targeting rule. The default (ELSE) rule has `audience: null`; any other rule has an
 * audience, because some SDKs throw on a non-default rule without one (docs/sdk-protocol.md §8).
 * Splits sum to 100 and name each variant at most once.
 */
export const ruleSchema = z
  .object({
    defaultRule: z.boolean(),
    priority: z.number().int().optional(),
    audience: audienceSchema.nullable(),
    variantSplits: z.array(variantSplitSchema).min(1, 'Variant is required').max(MAX_VARIANTS),
  })
  .superRefine((rule, ctx) => {
    if (rule.defaultRule && rule.audience !== null) {
      ctx.addIssue({ code: 'custom', path: ['audience'], message: 'The default rule has no audience.' });
    }
    if (!rule.defaultRule && rule.audience === null) {
      ctx.addIssue({ code: 'custom', path: ['audience'], message: 'A targeted rule needs an audience.' });
    }
    const keys = rule.variantSplits.map((split) => split.variantKey);
    if (new Set(keys).size !== keys.length) {
      ctx.addIssue({
        code: 'custom',
        path: ['variantSplits'],
        message: 'Each variant may appear only once.',
      });
    }
    const total = rule.variantSplits.reduce((sum, split) => sum + split.split, 0);
    if (rule.variantSplits.length > 0 && total !== 100) {
      ctx.addIssue({ code: 'custom', path: ['variantSplits'], message: 'Splits must add up to 100.' });
    }
  });
/** Type of {@link ruleSchema}. */
export type Rule = z.infer<typeof ruleSchema>;

/** The rules of a control: exactly one default rule, and it comes last (docs/product.md §4). */
export const rulesSchema = z
  .array(ruleSchema)
  .max(MAX_RULES, `At most ${MAX_RULES} rules are allowed.`)
  .superRefine((rules, ctx) => {
    const defaults = rules.filter((rule) => rule.defaultRule).length;
    if (defaults !== 1) {
      ctx.addIssue({ code: 'custom', message: 'Exactly one default rule is required.' });
    } else if (!rules[rules.length - 1]?.defaultRule) {
      ctx.addIssue({ code: 'custom', message: 'The default rule must come last.' });
    }
  });

/** The rule set of a new control: everyone gets `variantKey`. */
export function defaultRules(variantKey = 'on'): Rule[] {
  return [{ defaultRule: true, audience: null, variantSplits: [{ variantKey, split: 100 }] }];
}

/**
 * The switch, off variant and rules a feature's control starts with in a new environment (or a new
 * feature in every environment): off, serving `off` (else the last variant) when off, and giving
 * everyone `on` (else the first other variant) once switched on.
 */
export function defaultControlFor(variantKeys: readonly string[]): {
  enabled: false;
  offVariantKey: string;
  rules: Rule[];
} {
  const offVariantKey = variantKeys.includes('off') ? 'off' : (variantKeys[variantKeys.length - 1] ?? 'off');
  const onVariantKey = variantKeys.includes('on')
    ? 'on'
    : (variantKeys.find((key) => key !== offVariantKey) ?? offVariantKey);
  return { enabled: false, offVariantKey, rules: defaultRules(onVariantKey) };
}

/** Traffic status of a control (docs/product.md §4). */
export const TRAFFIC_STATUSES = ['never', 'inactive', 'active'] as const;
/** Type of one of {@link TRAFFIC_STATUSES}. */
export type TrafficStatus = (typeof TRAFFIC_STATUSES)[number];

/**
 * Targeting status of a control (docs/product.md §4): `off` when disabled; `single` when enabled and every
 * user gets one variant (only the default rule, at 100 %); `targeted` otherwise (audience rules or
 * a split).
 */
export const TARGETING_STATUSES = ['off', 'targeted', 'single'] as const;
/** Type of one of {@link TARGETING_STATUSES}. */
export type TargetingStatus = (typeof TARGETING_STATUSES)[number];

/** Derives {@link TargetingStatus} from a control's switch and rules. */
export function targetingStatusOf(control: { enabled: boolean; rules: readonly Rule[] }): TargetingStatus {
  if (!control.enabled) return 'off';
  const [only, ...rest] = control.rules;
  const single =
    rest.length === 0 &&
    only?.defaultRule === true &&
    only.variantSplits.some((split) => split.split === 100);
  return single ? 'single' : 'targeted';
}

/** A control with no impression for this many days is inactive (docs/product.md §4 traffic status). */
export const STALE_AFTER_DAYS = 7;

/**
 * Traffic status and stale days of a control (docs/product.md §3, §4): `never` without any impression;
 * otherwise `staleDays` is the number of whole days since the last impression, and the control is
 * `inactive` once that reaches {@link STALE_AFTER_DAYS}, else `active`. Without impressions
 * `staleDays` counts from the control's creation.
 */
export function trafficOf(
  control: { lastImpressionDate: string | null; createdDate: string },
  now: Date,
): { trafficStatus: TrafficStatus; staleDays: number } {
  const since = Date.parse(control.lastImpressionDate ?? control.createdDate);
  const staleDays = Number.isFinite(since) ? Math.max(0, Math.floor((now.getTime() - since) / DAY_MS)) : 0;
  if (control.lastImpressionDate === null) return { trafficStatus: 'never', staleDays };
  return { trafficStatus: staleDays >= STALE_AFTER_DAYS ? 'inactive' : 'active', staleDays };
}

function describeSplits(splits: readonly VariantSplit[], nameOf: (key: string) => string): string {
  const given = splits.filter((split) => split.split > 0);
  if (given.length === 1) return nameOf(given[0]!.variantKey);
  return given.map((split) => `${split.split}% ${nameOf(split.variantKey)}`).join(', ');
}

/**
 * A short sentence saying what a control serves (docs/product.md §3 `rulesDescription`): `Off: everyone gets
 * Off.`, `Everyone gets On.`, `Everyone gets 50% On, 50% Off.` or `2 targeting rules, otherwise On.`
 * Variant names are used when known, else keys.
 */
export function describeRules(
  control: { enabled: boolean; offVariantKey: string; rules: readonly Rule[] },
  variantNames: Readonly<Record<string, string>> = {},
): string {
  const nameOf = (key: string) => variantNames[key] ?? key;
  if (!control.enabled) return `Off: everyone gets ${nameOf(control.offVariantKey)}.`;
  const fallback = control.rules.find((rule) => rule.defaultRule);
  const targeted = control.rules.filter((rule) => !rule.defaultRule).length;
  const otherwise = fallback ? describeSplits(fallback.variantSplits, nameOf) : nameOf(control.offVariantKey);
  if (targeted === 0) return `Everyone gets ${otherwise}.`;
  return `${targeted} targeting rule${targeted === 1 ? '' : 's'}, otherwise ${otherwise}.`;
}

const todayCount = z.object({ today: z.number().int().min(0) });

/** Impression statistics of a control. */
export const controlStatisticsSchema = z.object({
  lastImpressionDate: dateTimeSchema.nullable(),
  impressions: todayCount,
  variants: z.record(z.string(), z.object({ impressions: todayCount })),
});
/** Type of {@link controlStatisticsSchema}. */
export type ControlStatistics = z.infer<typeof controlStatisticsSchema>;

/** A feature's control in one environment (docs/product.md §3). `key` is the feature key. */
export const featureControlSchema = z.object({
  id: idSchema,
  key: z.string(),
  environmentKey: z.string(),
  enabled: z.boolean(),
  offVariantKey: z.string(),
  rules: z.array(ruleSchema),
  available: z.boolean(),
  trafficStatus: z.enum(TRAFFIC_STATUSES),
  targetingStatus: z.enum(TARGETING_STATUSES),
  staleDays: z.number().int().min(0),
  rulesDescription: z.string(),
  createdDate: dateTimeSchema,
  lastModifiedDate: dateTimeSchema,
  statistics: controlStatisticsSchema,
});
/** Type of {@link featureControlSchema}. */
export type FeatureControl = z.infer<typeof featureControlSchema>;

/** Body of PUT /api/v1/feature-controls/: the on/off switch and the targeting of one control. */
export const featureControlInput = z.object({
  id: idSchema,
  enabled: z.boolean(),
  offVariantKey: variantKeyRef('Off variant is required'),
  rules: rulesSchema,
  lastModifiedDate: basedOnVersion,
  /** Why, kept with the version this save creates. */
  comment: optionalText(MAX_LENGTH.comment),
});
/** Type of {@link featureControlInput}. */
export type FeatureControlInput = z.infer<typeof featureControlInput>;

/**
 * Body of PUT /api/v1/feature-controls/{id}/enabled: turns one control on or off and changes nothing
 * else, so a toggle never carries (or overwrites) targeting.
 */
export const featureControlToggleInput = z.object({
  enabled: z.boolean(),
  lastModifiedDate: basedOnVersion,
  /** Why, kept with the version this toggle creates. */
  comment: optionalText(MAX_LENGTH.comment),
});
/** Type of {@link featureControlToggleInput}. */
export type FeatureControlToggleInput = z.infer<typeof featureControlToggleInput>;

function isDate(value: string): boolean {
  return z.iso.date().safeParse(value).success || z.iso.datetime({ offset: true }).safeParse(value).success;
}

/**
 * One condition row of the Targeting form. Knows the target's type, so it checks the operator
 * against {@link OPERATORS_BY_TARGET_TYPE}, reports "Segment is required" or "Value is required"
 * for an empty row, drops blank values, parses numbers as floats, and outputs a
 * {@link Condition}. Only `in`/`notIn` keep several values.
 */
export const conditionForm = z
  .object({
    target: text({ max: KEY_MAX_LENGTH, required: 'Required' }),
    targetType: z.enum(TARGET_TYPES).default('string'),
    operator: z.enum(OPERATORS, { error: 'Required' }),
    values: z
      .array(z.union([z.string(), z.number(), z.boolean()]))
      .max(MAX_CONDITION_VALUES, `At most ${MAX_CONDITION_VALUES} values are allowed.`)
      .default([]),
  })
  .superRefine((row, ctx) => {
    if (!OPERATORS_BY_TARGET_TYPE[row.targetType].includes(row.operator)) {
      ctx.addIssue({ code: 'custom', path: ['operator'], message: 'Operator is not valid for this target.' });
    }
    const values = row.values.filter((value) => typeof value !== 'string' || value.trim() !== '');
    if (values.length === 0) {
      const message = row.targetType === 'segment' ? 'Segment is required' : 'Value is required';
      ctx.addIssue({ code: 'custom', path: ['values'], message });
      return;
    }
    values.forEach((value, index) => {
      const path = ['values', index];
      if (typeof value === 'string' && !hasNoNul(value)) {
        ctx.addIssue({ code: 'custom', path, message: NUL_MESSAGE });
      } else if (typeof value === 'string' && value.length > MAX_LENGTH.conditionValue) {
        ctx.addIssue({ code: 'custom', path, message: tooLongMessage(MAX_LENGTH.conditionValue) });
      } else if (row.targetType === 'number' && !Number.isFinite(Number.parseFloat(String(value)))) {
        ctx.addIssue({ code: 'custom', path, message: 'Must be a number' });
      } else if (row.targetType === 'date' && !isDate(String(value))) {
        ctx.addIssue({ code: 'custom', path, message: 'Must be a date' });
      }
    });
  })
  .transform((row): Condition => {
    const values = row.values.filter((value) => typeof value !== 'string' || value.trim() !== '');
    const typed =
      row.targetType === 'number' ? values.map((value) => Number.parseFloat(String(value))) : values;
    return {
      target: row.target,
      operator: row.operator,
      values: MULTI_VALUE_OPERATORS.includes(row.operator) ? typed : typed.slice(0, 1),
    };
  });
/** Input type of {@link conditionForm}. */
export type ConditionFormValues = z.input<typeof conditionForm>;
