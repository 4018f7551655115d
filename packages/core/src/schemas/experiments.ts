import { z } from 'zod';
import { KEY_MAX_LENGTH, normaliseGoalKey } from '../keys';
import {
  MAX_LENGTH,
  dateTimeSchema,
  environmentKeySchema,
  idSchema,
  normalisedKey,
  optionalText,
  projectKeySchema,
  text,
} from './common';

/** Outcome of an experiment so far. */
export const experimentResultsSchema = z.object({
  validResult: z.boolean(),
  winningVariation: z.string().nullable(),
});
/** Type of {@link experimentResultsSchema}. */
export type ExperimentResults = z.infer<typeof experimentResultsSchema>;

/**
 * How an experiment's significance is read (docs/adr/0015-experiment-statistics.md): `fixed`, the
 * two-proportion z-test, valid when read once at a planned end; `sequential`, an always-valid
 * p-value, so the results may be looked at every day without inflating false winners.
 */
export const EXPERIMENT_MODES = ['fixed', 'sequential'] as const;
/** One of {@link EXPERIMENT_MODES}. */
export type ExperimentMode = (typeof EXPERIMENT_MODES)[number];

/** A conversion (A/B) experiment of one environment (docs/product.md §3). */
export const experimentSchema = z.object({
  id: idSchema,
  name: z.string(),
  description: z.string(),
  enabled: z.boolean(),
  goalKey: z.string(),
  featureId: idSchema,
  featureKey: z.string(),
  environmentId: idSchema,
  environmentKey: z.string(),
  projectKey: z.string(),
  /** Key of the control variant. */
  control: z.string(),
  /** Key of the alternate variant. */
  variation: z.string(),
  startDate: dateTimeSchema.nullable(),
  /** Set once the experiment has finished (docs/product.md §4). */
  endDate: dateTimeSchema.nullable(),
  archived: z.boolean(),
  mode: z.enum(EXPERIMENT_MODES),
  results: experimentResultsSchema.nullable(),
  feature: z.object({ id: idSchema, key: z.string(), name: z.string() }).nullable(),
});
/** Type of {@link experimentSchema}. */
export type Experiment = z.infer<typeof experimentSchema>;

const variantKey = (required: string) => text({ max: KEY_MAX_LENGTH, required });

/**
 * Body of PUT (with `id`) or POST /api/v1/experiments/, and the experiment form. The goal key is
 * normalised (docs/product.md §5); control and alternate must be different variants.
 */
export const experimentInput = z
  .object({
    id: idSchema.optional(),
    projectKey: projectKeySchema,
    environmentKey: environmentKeySchema,
    name: text({ max: MAX_LENGTH.name, required: 'Name is required' }),
    description: optionalText(MAX_LENGTH.description),
    goalKey: normalisedKey(normaliseGoalKey, 'Goal Key is required'),
    featureId: z.uuid({ error: 'Feature is required' }),
    control: variantKey('Control variant is required'),
    variation: variantKey('Alternate variant is required'),
    enabled: z.boolean().default(false),
    mode: z.enum(EXPERIMENT_MODES).default('fixed'),
  })
  .refine((experiment) => experiment.control !== experiment.variation, {
    path: ['variation'],
    message: 'The alternate variant must differ from the control variant.',
  });
/** Type of {@link experimentInput} after parsing. */
export type ExperimentInput = z.infer<typeof experimentInput>;
/** The experiment form: same rules as {@link experimentInput}. */
export const experimentForm = experimentInput;
/** Type of {@link experimentForm}. */
export type ExperimentForm = ExperimentInput;

/** Per-variant figures of an experiment. */
export const variantResultSchema = z.object({
  goals: z.number().int().min(0),
  impressions: z.number().int().min(0),
  /** Conversions per impression, 0..1; shown as a percentage to 2 decimals. */
  conversionRate: z.number().min(0).max(1),
  /** Sum of the `value`s of the goal events of the variant's converted users (revenue-style goals). */
  valueSum: z.number().optional(),
});
/** Type of {@link variantResultSchema}. */
export type VariantResult = z.infer<typeof variantResultSchema>;

/** An estimate with its confidence interval (`level` 0.95). */
export const intervalSchema = z.object({
  estimate: z.number(),
  lower: z.number(),
  upper: z.number(),
  level: z.number().gt(0).lt(1),
});
/** Type of {@link intervalSchema}. */
export type Interval = z.infer<typeof intervalSchema>;

/** Whether users are split between the variants as configured (a χ² test of the exposures). */
export const sampleRatioSchema = z.object({
  expectedVariationShare: z.number().gt(0).lt(1),
  observedVariationShare: z.number().min(0).max(1),
  chiSquare: z.number().min(0),
  pvalue: z.number().min(0).max(1),
  /** True below p = 0.001: the results should not be trusted until the cause is found. */
  flagged: z.boolean(),
  message: z.string().nullable(),
});
/** Type of {@link sampleRatioSchema}. */
export type SampleRatio = z.infer<typeof sampleRatioSchema>;

/** Cumulative figures of one variant at the end of one UTC day, for the conversion chart. */
export const experimentDaySchema = z.object({
  /** `YYYY-MM-DD` (UTC). */
  day: z.string(),
  variants: z.record(
    z.string(),
    z.object({ impressions: z.number().int().min(0), goals: z.number().int().min(0) }),
  ),
});
/** Type of {@link experimentDaySchema}. */
export type ExperimentDay = z.infer<typeof experimentDaySchema>;

/**
 * Response of GET /api/v1/experiment-statistics/{id}: the two-proportion z-test of the alternate
 * against the control (or the always-valid p-value in sequential mode), with intervals, the
 * sample-ratio check and the cumulative daily figures (docs/adr/0015-experiment-statistics.md).
 */
export const experimentStatisticsSchema = z.object({
  /** 0..1; a winner is declared at 0.95 (docs/product.md §9). */
  confidence: z.number().min(0).max(1),
  pvalue: z.number().min(0).max(1),
  validResult: z.boolean(),
  winningVariation: z.string().nullable(),
  zscore: z.number(),
  variantResults: z.record(z.string(), variantResultSchema),
  mode: z.enum(EXPERIMENT_MODES),
  /** Why the result is not valid yet, in plain language (empty when it is). */
  invalidReasons: z.array(z.string()),
  /** Alternate minus control conversion rate. */
  difference: intervalSchema.nullable(),
  /** Alternate over control conversion rate, minus 1. */
  relativeLift: intervalSchema.nullable(),
  sampleRatio: sampleRatioSchema,
  /** Users exposed to both variants (a rule changed mid-experiment): counted once, in the first. */
  usersInBothVariants: z.number().int().min(0),
  daily: z.array(experimentDaySchema),
});
/** Type of {@link experimentStatisticsSchema}. */
export type ExperimentStatistics = z.infer<typeof experimentStatisticsSchema>;

/** A goal that SDKs report conversions against. */
export const goalSchema = z.object({ key: z.string(), name: z.string() });
/** Type of {@link goalSchema}. */
export type Goal = z.infer<typeof goalSchema>;

/** Query of GET /api/v1/goals?projectKey=&query=. */
export const goalsQuery = z.object({
  projectKey: projectKeySchema,
  query: text({ max: MAX_LENGTH.query }).optional(),
});
/** Type of {@link goalsQuery}. */
export type GoalsQuery = z.infer<typeof goalsQuery>;

/** Query of GET /api/v1/experiments/: the environment whose experiments to list. */
export const experimentsQuery = z.object({
  projectKey: projectKeySchema,
  environmentKey: environmentKeySchema,
});
/** Type of {@link experimentsQuery}. */
export type ExperimentsQuery = z.infer<typeof experimentsQuery>;
