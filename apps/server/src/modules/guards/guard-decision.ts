import { sampleRatioMismatch } from '../experiments/sample-ratio';
import type { SampleRatioCheck } from '../experiments/statistics.types';
import { harmInterval, type BadDirection, type HarmReading } from './guard-statistics';

/*
 * One check of a guarded ramp (docs/adr/0026-guarded-rollouts.md): from the arms' counts to a verdict.
 * A metric that looks good never speeds a ramp up: the verdicts only stop it (regression, sample
 * ratio mismatch, no traffic) or let its holds run their course (healthy, waiting).
 */

/** A guarded metric and what each arm's users did. */
export interface GuardMetricCounts {
  goalKey: string;
  badDirection: BadDirection;
  threshold: number;
  /** Users of each arm who reached the goal after their first exposure, each counted once. */
  controlConversions: number;
  treatmentConversions: number;
}

export interface GuardCheckInput {
  /** Users whose first exposure in the ramped rule was to another variant. */
  controlExposures: number;
  /** Users whose first exposure in the ramped rule was to the ramped variant. */
  treatmentExposures: number;
  /**
   * The users first exposed during the current step, by arm, and the ramped variant's share of the
   * rule the step intends (0 to 1): the sample-ratio check compares them. Earlier steps had other
   * shares, so the cumulative arms say nothing about this one's split.
   */
  step: { controlExposures: number; treatmentExposures: number; intendedShare: number };
  metrics: readonly GuardMetricCounts[];
  alpha: number;
  /** Exposures each arm needs before a metric is read. */
  minExposuresPerArm: number;
  /** Hours since the rule's last exposure (or since the ramp started, before the first); null if unknown. */
  hoursWithoutTraffic: number | null;
  noTrafficHours: number;
}

/** `waiting`: too few users to read; `healthy`: read, no harm; the others stop the ramp. */
export type GuardVerdict = 'waiting' | 'healthy' | 'regression' | 'sample-ratio-mismatch' | 'no-traffic';

export interface GuardMetricReading extends HarmReading {
  goalKey: string;
  badDirection: BadDirection;
  threshold: number;
  control: { exposures: number; conversions: number };
  treatment: { exposures: number; conversions: number };
}

export interface GuardCheck {
  verdict: GuardVerdict;
  /** Each metric's reading, once both arms have their minimum; empty while waiting. */
  metrics: GuardMetricReading[];
  /** The goal keys of the metrics that show harm. */
  harmedGoals: string[];
  /** Whether the arms' sizes match the split the step intends; null when the step leaves no control arm. */
  sampleRatio: SampleRatioCheck | null;
}

/**
 * Reads one check. The order of precedence is regression, then sample ratio mismatch, then no traffic:
 * a regression is the reason a guard exists, and is reported even when the split is off.
 */
export function checkGuard(input: GuardCheckInput): GuardCheck {
  const { controlExposures, treatmentExposures, step } = input;
  const sampleRatio =
    step.intendedShare > 0 && step.intendedShare < 1
      ? sampleRatioMismatch(step.controlExposures, step.treatmentExposures, step.intendedShare, {
          control: 'the other variants',
          variation: 'the ramped variant',
        })
      : null;
  const ready =
    controlExposures >= input.minExposuresPerArm && treatmentExposures >= input.minExposuresPerArm;
  const metrics: GuardMetricReading[] = ready
    ? input.metrics.map((metric) => {
        const control = { exposures: controlExposures, conversions: metric.controlConversions };
        const treatment = { exposures: treatmentExposures, conversions: metric.treatmentConversions };
        const reading = harmInterval({
          control,
          treatment,
          badDirection: metric.badDirection,
          threshold: metric.threshold,
          alpha: input.alpha,
        });
        return {
          goalKey: metric.goalKey,
          badDirection: metric.badDirection,
          threshold: metric.threshold,
          control,
          treatment,
          ...reading,
        };
      })
    : [];
  const harmedGoals = metrics.filter((metric) => metric.harmed).map((metric) => metric.goalKey);
  const verdict: GuardVerdict =
    harmedGoals.length > 0
      ? 'regression'
      : sampleRatio?.flagged
        ? 'sample-ratio-mismatch'
        : input.hoursWithoutTraffic !== null && input.hoursWithoutTraffic >= input.noTrafficHours
          ? 'no-traffic'
          : ready
            ? 'healthy'
            : 'waiting';
  return { verdict, metrics, harmedGoals, sampleRatio };
}
