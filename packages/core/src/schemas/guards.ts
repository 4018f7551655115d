import { z } from 'zod';
import { normaliseGoalKey } from '../keys';
import { dateTimeSchema, normalisedKey } from './common';

/*
 * Guarded rollouts (docs/adr/0026-guarded-rollouts.md): a guard watches a ramp's goals, comparing the
 * rule's users served the ramped variant with its other users, and pauses or rolls the ramp back when
 * one of them shows harm, when the split is not what the step intends, or when the rule gets no
 * traffic. The contract of the `guard` of a ramp's body; the server module `guards` reads it.
 */

/** Which way a guarded goal moves when the ramped variant does harm. */
export const GUARD_BAD_DIRECTIONS = ['increase', 'decrease'] as const;
/** What a guard does about a regression. */
export const GUARD_REGRESSION_ACTIONS = ['pause', 'rollback'] as const;
/** What a guard does about a sample ratio mismatch or a rule without traffic. */
export const GUARD_SIGNAL_ACTIONS = ['pause', 'rollback', 'warn'] as const;

/** Most goals one guard watches. */
export const MAX_GUARD_METRICS = 10;
/** Defaults of a guard's settings. */
export const GUARD_DEFAULTS = {
  alpha: 0.05,
  minExposuresPerArm: 500,
  noTrafficHours: 24,
  threshold: 0,
} as const;
/** How often a running guarded ramp is checked, besides at each step. */
export const GUARD_CHECK_MS = 60_000;

/** Validation messages of a guard, shown beside the ramp editor's fields. */
export const GUARD_MESSAGES = {
  metricsRequired: 'A guard watches at least one goal.',
  tooManyMetrics: `A guard watches at most ${MAX_GUARD_METRICS} goals.`,
  duplicateGoal: 'Each goal is watched once.',
  badDirection: 'Say whether an increase or a decrease is harm.',
  threshold: 'The threshold is a relative change from 0 (any harm) to 10 (+1,000 %).',
  decreaseThreshold: 'A decrease that counts as harm is below 100 %.',
  alpha: 'Alpha is between 0.001 and 0.2.',
  minExposures: 'Each arm needs between 100 and 1,000,000 users before a goal is read.',
  noTrafficHours: 'No traffic is noticed after 1 to 720 hours.',
} as const;

/** One goal a guard watches. */
export const guardMetricSchema = z
  .strictObject({
    goalKey: normalisedKey(normaliseGoalKey, 'Goal Key is required'),
    badDirection: z.enum(GUARD_BAD_DIRECTIONS, { error: GUARD_MESSAGES.badDirection }),
    /** The relative change that counts as harm: 0.1 is 10 % more (or less) than the other users'. */
    threshold: z
      .number({ error: GUARD_MESSAGES.threshold })
      .min(0, GUARD_MESSAGES.threshold)
      .max(10, GUARD_MESSAGES.threshold)
      .default(GUARD_DEFAULTS.threshold),
  })
  .refine((metric) => metric.badDirection === 'increase' || metric.threshold < 1, {
    path: ['threshold'],
    message: GUARD_MESSAGES.decreaseThreshold,
  });

/** A ramp's guard. */
export const guardSchema = z.strictObject({
  metrics: z
    .array(guardMetricSchema)
    .min(1, GUARD_MESSAGES.metricsRequired)
    .max(MAX_GUARD_METRICS, GUARD_MESSAGES.tooManyMetrics)
    .superRefine((metrics, ctx) => {
      metrics.forEach((metric, i) => {
        if (metrics.findIndex((other) => other.goalKey === metric.goalKey) < i)
          ctx.addIssue({ code: 'custom', path: [i, 'goalKey'], message: GUARD_MESSAGES.duplicateGoal });
      });
    }),
  /** One-sided: the chance of ever calling a regression where there is none, at most. */
  alpha: z
    .number({ error: GUARD_MESSAGES.alpha })
    .min(0.001, GUARD_MESSAGES.alpha)
    .max(0.2, GUARD_MESSAGES.alpha)
    .default(GUARD_DEFAULTS.alpha),
  minExposuresPerArm: z
    .number({ error: GUARD_MESSAGES.minExposures })
    .int(GUARD_MESSAGES.minExposures)
    .min(100, GUARD_MESSAGES.minExposures)
    .max(1_000_000, GUARD_MESSAGES.minExposures)
    .default(GUARD_DEFAULTS.minExposuresPerArm),
  onRegression: z.enum(GUARD_REGRESSION_ACTIONS, { error: 'Pause or roll back.' }).default('rollback'),
  onSampleRatioMismatch: z
    .enum(GUARD_SIGNAL_ACTIONS, { error: 'Pause, roll back or warn.' })
    .default('pause'),
  noTrafficHours: z
    .number({ error: GUARD_MESSAGES.noTrafficHours })
    .min(1, GUARD_MESSAGES.noTrafficHours)
    .max(720, GUARD_MESSAGES.noTrafficHours)
    .default(GUARD_DEFAULTS.noTrafficHours),
  onNoTraffic: z.enum(GUARD_SIGNAL_ACTIONS, { error: 'Pause, roll back or warn.' }).default('warn'),
});
/** Type of {@link guardSchema}, as sent. */
export type GuardInput = z.input<typeof guardSchema>;
/** Type of {@link guardSchema}, with its defaults. */
export type Guard = z.infer<typeof guardSchema>;

/**
 * `POST /api/v1/projects/{projectKey}/schedules/{id}/alert`: makes the ramp's alert URL, or replaces
 * it (the old one stops working). `action` is what an alert does to the ramp.
 */
export const rampAlertInput = z.strictObject({
  action: z.enum(GUARD_REGRESSION_ACTIONS, { error: 'Pause or roll back.' }).default('rollback'),
});
/** Type of {@link rampAlertInput}, as sent. */
export type RampAlertInput = z.input<typeof rampAlertInput>;

/** A ramp's alert URL as the API answers it; `url` only in the answer that made it. */
export const rampAlertSchema = z.object({
  action: z.enum(GUARD_REGRESSION_ACTIONS),
  url: z.string().optional(),
  createdBy: z.string(),
  createdDate: dateTimeSchema,
  lastAlertDate: dateTimeSchema.nullable(),
  /** What the last alert did, in words. */
  lastResult: z.string().nullable(),
});
/** Type of {@link rampAlertSchema}. */
export type RampAlert = z.infer<typeof rampAlertSchema>;

/**
 * The body `POST /api/v1/alerts/{token}` reads: an Alertmanager webhook (version 4), or a bare `{}`
 * from any other tool. Only `status` and the alerts' names are read; every other field is ignored.
 */
export const alertBodySchema = z.looseObject({
  status: z.string().optional(),
  alerts: z
    .array(z.looseObject({ labels: z.looseObject({ alertname: z.string().optional() }).optional() }))
    .optional(),
});
/** Type of {@link alertBodySchema}. */
export type AlertBody = z.infer<typeof alertBodySchema>;

/** The answer to an alert: whether it stopped the ramp, and why not when it did not. */
export const alertAnswerSchema = z.object({
  result: z.enum(['applied', 'skipped']),
  reason: z.string(),
});
/** Type of {@link alertAnswerSchema}. */
export type AlertAnswer = z.infer<typeof alertAnswerSchema>;
