import normalCdf from '@stdlib/stats-base-dists-normal-cdf';
import normalQuantile from '@stdlib/stats-base-dists-normal-quantile';
import { checkArm, clampProbability, pooledVariance, rate } from './statistics-counts';
import type { ArmCounts, Interval, ZTest } from './statistics.types';

/*
 * The fixed-horizon comparison of two conversion rates (docs/adr/0015-experiment-statistics.md): the
 * pooled z-test, and 95 % intervals for the difference and the relative lift.
 */

/** Level of the confidence intervals. */
export const INTERVAL_LEVEL = 0.95;

/** z such that Φ(z) = 0.975: the half-width multiplier of a 95 % interval. */
const Z_INTERVAL = normalQuantile(1 - (1 - INTERVAL_LEVEL) / 2, 0, 1);

/**
 * The pooled two-proportion z-test of the alternate against the control:
 * z = (p₂ − p₁) / √(p̄(1 − p̄)(1/n₁ + 1/n₂)) with p̄ = (c₁ + c₂)/(n₁ + n₂), and the two-sided
 * p = 2Φ(−|z|). When an arm has no exposures or p̄ is 0 or 1 the test is undefined: z 0, p 1.
 * Throws a RangeError for counts that are not non-negative integers with conversions ≤ exposures.
 */
export function twoProportionZTest(control: ArmCounts, variation: ArmCounts): ZTest {
  checkArm(control, 'control');
  checkArm(variation, 'variation');
  const variance = pooledVariance(control, variation);
  if (variance === 0) return { zscore: 0, pvalue: 1 };
  const zscore = (rate(variation) - rate(control)) / Math.sqrt(variance);
  return { zscore, pvalue: twoSidedPvalue(zscore) };
}

/**
 * 95 % interval of the difference of conversion rates, alternate − control, by Newcombe's hybrid
 * score method (his method 10): the Wilson intervals (l, u) of each rate combined as
 * [d − √((p₂ − l₂)² + (u₁ − p₁)²), d + √((u₂ − p₂)² + (p₁ − l₁)²)]. It always contains d, stays
 * within [−1, 1] and keeps its width when an arm has 0 or all conversions. Null when an arm has no
 * exposures.
 */
export function differenceInterval(control: ArmCounts, variation: ArmCounts): Interval | null {
  checkArm(control, 'control');
  checkArm(variation, 'variation');
  if (control.exposures === 0 || variation.exposures === 0) return null;
  const p1 = rate(control);
  const p2 = rate(variation);
  const [l1, u1] = wilsonInterval(control);
  const [l2, u2] = wilsonInterval(variation);
  const estimate = p2 - p1;
  const lower = estimate - Math.hypot(p2 - l2, u1 - p1);
  const upper = estimate + Math.hypot(u2 - p2, p1 - l1);
  return {
    estimate,
    lower: Math.max(-1, Math.min(estimate, lower)),
    upper: Math.min(1, Math.max(estimate, upper)),
    level: INTERVAL_LEVEL,
  };
}

/**
 * 95 % interval of the relative lift, p₂/p₁ − 1, by the delta method on the log of the ratio (Katz):
 * ln(p₂/p₁) ± z·√(1/c₂ − 1/n₂ + 1/c₁ − 1/n₁), mapped back with exp(·) − 1. The interval is
 * asymmetric like the ratio's sampling distribution and never goes below −100 %. Null when an arm has
 * no conversions (the ratio or its logarithm is then undefined).
 */
export function relativeLiftInterval(control: ArmCounts, variation: ArmCounts): Interval | null {
  checkArm(control, 'control');
  checkArm(variation, 'variation');
  if (control.conversions === 0 || variation.conversions === 0) return null;
  const logRatio = Math.log(rate(variation)) - Math.log(rate(control));
  const standardError = Math.sqrt(
    Math.max(
      0,
      1 / variation.conversions - 1 / variation.exposures + 1 / control.conversions - 1 / control.exposures,
    ),
  );
  const estimate = rate(variation) / rate(control) - 1;
  return {
    estimate,
    lower: Math.min(estimate, Math.exp(logRatio - Z_INTERVAL * standardError) - 1),
    upper: Math.max(estimate, Math.exp(logRatio + Z_INTERVAL * standardError) - 1),
    level: INTERVAL_LEVEL,
  };
}

function twoSidedPvalue(zscore: number): number {
  return clampProbability(2 * normalCdf(-Math.abs(zscore), 0, 1));
}

/** Wilson score interval of one arm's rate, clamped to [0, 1] and to contain the rate. */
function wilsonInterval(arm: ArmCounts): [number, number] {
  const n = arm.exposures;
  const p = rate(arm);
  const z2 = Z_INTERVAL * Z_INTERVAL;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const halfWidth = (Z_INTERVAL / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [Math.min(p, Math.max(0, centre - halfWidth)), Math.max(p, Math.min(1, centre + halfWidth))];
}
