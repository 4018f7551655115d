import chisquareCdf from '@stdlib/stats-base-dists-chisquare-cdf';
import normalCdf from '@stdlib/stats-base-dists-normal-cdf';
import normalQuantile from '@stdlib/stats-base-dists-normal-quantile';
import { formatCount } from '@vexil/core';

/*
 * The statistics of a conversion (A/B) experiment: pure functions over counts, no I/O. The methods
 * and their reasons are recorded in docs/adr/0015-experiment-statistics.md; the winner threshold is
 * docs/product.md §9 ("Experiment winner at 95 % confidence").
 */

// ---------------------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------------------

/**
 * How the p-value is read. `fixed`: the classical two-proportion z-test, valid when the results are
 * read once, at a sample size chosen in advance. `sequential`: an always-valid p-value (a mixture
 * sequential probability ratio test) that may be read after every day without inflating false winners.
 */
export type ExperimentMode = 'fixed' | 'sequential';

/** What one variant (arm) of an experiment has gathered so far. */
export interface ArmCounts {
  /** Distinct users exposed to the variant (shown as impressions); a non-negative integer. */
  exposures: number;
  /** Distinct exposed users who reached the goal (shown as goals); an integer, 0..exposures. */
  conversions: number;
  /** Optional total value of the goal events (e.g. revenue); only summarised, never tested. */
  valueSum?: number;
}

/** An arm with its variant key. */
export interface ExperimentArm extends ArmCounts {
  /** The variant key; control and alternate must differ. */
  key: string;
}

/** Cumulative counts of both arms at one look (for example at the end of one day). */
export interface ArmPair {
  control: ArmCounts;
  variation: ArmCounts;
}

/** Settings of the sequential mode. */
export interface SequentialOptions {
  /**
   * τ², the variance of the normal mixture over the true difference of conversion rates
   * (alternate − control). Defaults to {@link DEFAULT_MIXING_VARIANCE}. Keep it fixed for the life of
   * an experiment: changing it between looks voids the guarantee.
   */
  mixingVariance?: number;
  /**
   * The always-valid p-value returned at the previous look (the `pvalue` of the last
   * {@link analyseExperiment} in sequential mode), 1 for the first look. Either this or
   * `earlierLooks` carries the running minimum; with both, the smaller wins.
   */
  previousPvalue?: number;
  /** Cumulative counts at each earlier look, oldest first (e.g. the end of each earlier day). */
  earlierLooks?: readonly ArmPair[];
}

/** Input of {@link analyseExperiment}. */
export interface ExperimentAnalysisInput {
  control: ExperimentArm;
  /** The alternate variant. */
  variation: ExperimentArm;
  /** Share of exposed users the split sends to the alternate, strictly between 0 and 1; default 0.5. */
  expectedVariationShare?: number;
  /** Default `fixed`. */
  mode?: ExperimentMode;
  /** Only read in `sequential` mode. */
  sequential?: SequentialOptions;
  /**
   * Users exposed to both variants (counted once, in the first they saw). Carried through to the
   * output for the statistics page; it does not change the figures.
   */
  usersInBothVariants?: number;
}

/** Figures of one variant, as the statistics page's table shows them. */
export interface VariantStatistics {
  impressions: number;
  goals: number;
  /** goals / impressions, 0..1; 0 when nobody was exposed. */
  conversionRate: number;
  /** Only when the input had a `valueSum`. */
  valueSum?: number;
  /** valueSum / impressions; 0 when nobody was exposed. Only when the input had a `valueSum`. */
  valuePerImpression?: number;
}

/** A two-sided confidence interval around a point estimate; every bound is a finite number. */
export interface Interval {
  estimate: number;
  lower: number;
  upper: number;
  /** Confidence level of the interval, 0.95. */
  level: number;
}

/** Result of the sample-ratio-mismatch check (χ² goodness of fit against the configured split). */
export interface SampleRatioCheck {
  expectedVariationShare: number;
  /** Share of the exposed users the alternate actually got; 0 when nobody was exposed. */
  observedVariationShare: number;
  /** The χ² statistic (1 degree of freedom). */
  chiSquare: number;
  pvalue: number;
  /** True when pvalue < {@link SRM_ALPHA}. */
  flagged: boolean;
  /** A plain-language warning when flagged, else null. */
  message: string | null;
}

/** Result of the pooled two-proportion z-test. */
export interface ZTest {
  /** (rate of the alternate − rate of the control) / pooled standard error; 0 when undefined. */
  zscore: number;
  /** Two-sided p-value, 0..1; 1 when the test is undefined. */
  pvalue: number;
}

/**
 * Everything the statistics page needs. Every number is finite and the whole object survives
 * `JSON.stringify`; it is a superset of core's `experimentStatisticsSchema`.
 */
export interface ExperimentAnalysis {
  mode: ExperimentMode;
  /** The z statistic of the alternate against the control (positive: the alternate converts better). */
  zscore: number;
  /** The p-value of the mode in force: the z-test's in `fixed`, the always-valid one in `sequential`. */
  pvalue: number;
  /** 1 − pvalue. */
  confidence: number;
  /** Both arms have at least {@link MIN_EXPOSURES} exposures and {@link MIN_CONVERSIONS} conversions. */
  validResult: boolean;
  /** Why the result is not valid yet, one plain-language sentence each; empty when valid. */
  invalidReasons: string[];
  /** Key of the better arm when the result is valid and confidence ≥ {@link WINNING_CONFIDENCE}. */
  winningVariation: string | null;
  /** Keyed by variant key. */
  variantResults: Record<string, VariantStatistics>;
  /** Difference of conversion rates, alternate − control (Newcombe); null when an arm has no exposures. */
  difference: Interval | null;
  /** Relative lift, alternate / control − 1 (log ratio); null when an arm has no conversions. */
  relativeLift: Interval | null;
  sampleRatio: SampleRatioCheck;
  /** τ² used in `sequential` mode; null in `fixed` mode. */
  mixingVariance: number | null;
  usersInBothVariants: number;
}

// ---------------------------------------------------------------------------------------------------
// Constants
// ---------------------------------------------------------------------------------------------------

/** Exposed users each arm needs before a result is valid. */
export const MIN_EXPOSURES = 100;
/** Converted users each arm needs before a result is valid. */
export const MIN_CONVERSIONS = 10;
/** Confidence at which a winner is declared (docs/product.md §9). */
export const WINNING_CONFIDENCE = 0.95;
/** Level of the confidence intervals. */
export const INTERVAL_LEVEL = 0.95;
/** A sample ratio mismatch is flagged below this p-value. */
export const SRM_ALPHA = 0.001;
/** Share of users the alternate is expected to get when the caller does not say. */
export const DEFAULT_EXPECTED_VARIATION_SHARE = 0.5;
/**
 * Default τ² of the sequential mode: a normal prior on the true difference of conversion rates with a
 * standard deviation of 1 percentage point, the size of effect conversion experiments usually look
 * for. The guarantee holds for any τ²; τ² only moves where the test is most powerful
 * (docs/adr/0015-experiment-statistics.md).
 */
export const DEFAULT_MIXING_VARIANCE = 0.01 ** 2;

/** z such that Φ(z) = 0.975: the half-width multiplier of a 95 % interval. */
const Z_INTERVAL = normalQuantile(1 - (1 - INTERVAL_LEVEL) / 2, 0, 1);

// ---------------------------------------------------------------------------------------------------
// Tests and intervals
// ---------------------------------------------------------------------------------------------------

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

/**
 * The sample-ratio-mismatch check: Pearson's χ² goodness of fit of the exposures against the
 * configured split, with 1 degree of freedom, flagged when p < {@link SRM_ALPHA}. `keys` name the
 * variants in the message. Not flagged (p 1) when nobody was exposed. Throws a RangeError for counts
 * that are not non-negative integers or a share outside (0, 1).
 */
export function sampleRatioMismatch(
  controlExposures: number,
  variationExposures: number,
  expectedVariationShare: number = DEFAULT_EXPECTED_VARIATION_SHARE,
  keys: { control: string; variation: string } = { control: 'control', variation: 'alternate' },
): SampleRatioCheck {
  checkCount(controlExposures, 'control exposures');
  checkCount(variationExposures, 'variation exposures');
  checkShare(expectedVariationShare);
  const total = controlExposures + variationExposures;
  if (total === 0) {
    return {
      expectedVariationShare,
      observedVariationShare: 0,
      chiSquare: 0,
      pvalue: 1,
      flagged: false,
      message: null,
    };
  }
  const expectedVariation = total * expectedVariationShare;
  const expectedControl = total - expectedVariation;
  const chiSquare =
    (controlExposures - expectedControl) ** 2 / expectedControl +
    (variationExposures - expectedVariation) ** 2 / expectedVariation;
  const pvalue = clampProbability(1 - chisquareCdf(chiSquare, 1));
  const flagged = pvalue < SRM_ALPHA;
  const observedVariationShare = variationExposures / total;
  const message = flagged
    ? `The alternate (${keys.variation}) got ${percent(observedVariationShare)} of the ` +
      `${formatCount(total)} exposed users, where ${percent(expectedVariationShare)} was expected; ` +
      `a gap this large happens by chance in fewer than 1 experiment in ${formatCount(1 / SRM_ALPHA)}. ` +
      `Users are probably not being split as configured (for example the split changed while the ` +
      `experiment ran, or one variant does not report its impressions), so do not trust these ` +
      `results until the cause is found.`
    : null;
  return { expectedVariationShare, observedVariationShare, chiSquare, pvalue, flagged, message };
}

/**
 * The mixture SPRT p-value of a single look, 1/Λ capped at 1, where Λ is the likelihood ratio of the
 * observed difference d = p₂ − p₁ under a normal mixture N(0, τ²) over the true difference against
 * no difference, with the normal approximation d ~ N(θ, V) and V the pooled variance of the z-test:
 * Λ = √(V/(V + τ²)) · exp(d²τ² / (2V(V + τ²))). 1 when V is 0 or an arm has no exposures.
 * On its own this is not yet always valid: take the running minimum over looks
 * ({@link alwaysValidPvalue}).
 */
export function mixtureSprtPvalue(
  control: ArmCounts,
  variation: ArmCounts,
  mixingVariance: number = DEFAULT_MIXING_VARIANCE,
): number {
  checkArm(control, 'control');
  checkArm(variation, 'variation');
  checkMixingVariance(mixingVariance);
  const variance = pooledVariance(control, variation);
  if (variance === 0) return 1;
  const difference = rate(variation) - rate(control);
  const logLikelihoodRatio =
    0.5 * Math.log(variance / (variance + mixingVariance)) +
    (difference * difference * mixingVariance) / (2 * variance * (variance + mixingVariance));
  return clampProbability(Math.exp(-logLikelihoodRatio));
}

/**
 * The always-valid p-value after a series of looks (cumulative counts, oldest first): the running
 * minimum of {@link mixtureSprtPvalue}, starting from `previousPvalue` (1 by default). Looks at which
 * the result is not yet valid ({@link MIN_EXPOSURES}, {@link MIN_CONVERSIONS}) do not count: the
 * normal approximation is poor there. Under no true difference the chance that it ever falls below
 * α, however often it is read, is at most α. Passing the last result as `previousPvalue` and only the
 * new looks gives the same answer as passing every look.
 */
export function alwaysValidPvalue(
  looks: readonly ArmPair[],
  mixingVariance: number = DEFAULT_MIXING_VARIANCE,
  previousPvalue = 1,
): number {
  checkMixingVariance(mixingVariance);
  checkProbability(previousPvalue, 'previousPvalue');
  let pvalue = previousPvalue;
  for (const look of looks) {
    checkArm(look.control, 'control');
    checkArm(look.variation, 'variation');
    if (!meetsMinimum(look.control) || !meetsMinimum(look.variation)) continue;
    pvalue = Math.min(pvalue, mixtureSprtPvalue(look.control, look.variation, mixingVariance));
  }
  return pvalue;
}

/**
 * Why a result is not valid yet: one plain-language sentence per arm and minimum it misses, e.g.
 * "Each variant needs at least 100 exposed users; the control (off) has 42.". Empty when both arms
 * have at least {@link MIN_EXPOSURES} exposures and {@link MIN_CONVERSIONS} conversions.
 */
export function invalidReasons(control: ExperimentArm, variation: ExperimentArm): string[] {
  checkArm(control, 'control');
  checkArm(variation, 'variation');
  const reasons: string[] = [];
  const arms = [
    { name: 'control', arm: control },
    { name: 'alternate', arm: variation },
  ];
  for (const { name, arm } of arms) {
    if (arm.exposures < MIN_EXPOSURES) {
      reasons.push(
        `Each variant needs at least ${MIN_EXPOSURES} exposed users; the ${name} (${arm.key}) has ` +
          `${formatCount(arm.exposures)}.`,
      );
    }
  }
  for (const { name, arm } of arms) {
    if (arm.conversions < MIN_CONVERSIONS) {
      reasons.push(
        `Each variant needs at least ${MIN_CONVERSIONS} users who reached the goal; the ${name} ` +
          `(${arm.key}) has ${formatCount(arm.conversions)}.`,
      );
    }
  }
  return reasons;
}

/**
 * The statistics of an experiment: per-variant figures, the z-test (or, in sequential mode, the
 * always-valid p-value), validity with its reasons, the winner, intervals for the difference and the
 * relative lift, and the sample-ratio-mismatch check. `winningVariation` is the better arm's key when
 * the result is valid and confidence ≥ {@link WINNING_CONFIDENCE}; the sample-ratio check does not
 * withhold it but warns. Throws a RangeError for inputs no count could produce (negative or
 * fractional counts, conversions above exposures, equal keys, a share outside (0, 1), τ² ≤ 0).
 */
export function analyseExperiment(input: ExperimentAnalysisInput): ExperimentAnalysis {
  const { control, variation } = input;
  const mode = input.mode ?? 'fixed';
  checkArm(control, 'control');
  checkArm(variation, 'variation');
  if (control.key === variation.key) {
    throw new RangeError('The control and the alternate must be different variants.');
  }
  const usersInBothVariants = input.usersInBothVariants ?? 0;
  checkCount(usersInBothVariants, 'usersInBothVariants');

  const { zscore, pvalue: fixedPvalue } = twoProportionZTest(control, variation);
  let pvalue = fixedPvalue;
  let mixingVariance: number | null = null;
  if (mode === 'sequential') {
    const options = input.sequential ?? {};
    mixingVariance = options.mixingVariance ?? DEFAULT_MIXING_VARIANCE;
    pvalue = alwaysValidPvalue(
      [...(options.earlierLooks ?? []), { control, variation }],
      mixingVariance,
      options.previousPvalue ?? 1,
    );
  }
  const confidence = 1 - pvalue;
  const reasons = invalidReasons(control, variation);
  const validResult = reasons.length === 0;
  const better = zscore > 0 ? variation.key : zscore < 0 ? control.key : null;
  const winningVariation = validResult && confidence >= WINNING_CONFIDENCE ? better : null;

  return {
    mode,
    zscore,
    pvalue,
    confidence,
    validResult,
    invalidReasons: reasons,
    winningVariation,
    variantResults: {
      [control.key]: variantStatistics(control),
      [variation.key]: variantStatistics(variation),
    },
    difference: differenceInterval(control, variation),
    relativeLift: relativeLiftInterval(control, variation),
    sampleRatio: sampleRatioMismatch(
      control.exposures,
      variation.exposures,
      input.expectedVariationShare ?? DEFAULT_EXPECTED_VARIATION_SHARE,
      { control: control.key, variation: variation.key },
    ),
    mixingVariance,
    usersInBothVariants,
  };
}

// ---------------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------------

function rate(arm: ArmCounts): number {
  return arm.exposures === 0 ? 0 : arm.conversions / arm.exposures;
}

/** p̄(1 − p̄)(1/n₁ + 1/n₂), the variance of p₂ − p₁ when both arms convert alike; 0 when undefined. */
function pooledVariance(control: ArmCounts, variation: ArmCounts): number {
  if (control.exposures === 0 || variation.exposures === 0) return 0;
  const pooled = (control.conversions + variation.conversions) / (control.exposures + variation.exposures);
  return pooled * (1 - pooled) * (1 / control.exposures + 1 / variation.exposures);
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

function meetsMinimum(arm: ArmCounts): boolean {
  return arm.exposures >= MIN_EXPOSURES && arm.conversions >= MIN_CONVERSIONS;
}

function variantStatistics(arm: ArmCounts): VariantStatistics {
  const statistics: VariantStatistics = {
    impressions: arm.exposures,
    goals: arm.conversions,
    conversionRate: rate(arm),
  };
  if (arm.valueSum !== undefined) {
    statistics.valueSum = arm.valueSum;
    statistics.valuePerImpression = arm.exposures === 0 ? 0 : arm.valueSum / arm.exposures;
  }
  return statistics;
}

function clampProbability(value: number): number {
  return Number.isNaN(value) ? 1 : Math.min(1, Math.max(0, value));
}

/** A share as a percentage with at most one decimal: 0.4 → "40 %", 0.4567 → "45.7 %". */
function percent(share: number): string {
  return `${Number((share * 100).toFixed(1))} %`;
}

function checkCount(value: number, name: string): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative integer, not ${value}.`);
  }
}

function checkArm(arm: ArmCounts, name: string): void {
  checkCount(arm.exposures, `${name} exposures`);
  checkCount(arm.conversions, `${name} conversions`);
  if (arm.conversions > arm.exposures) {
    throw new RangeError(
      `${name} conversions (${arm.conversions}) cannot exceed its exposures (${arm.exposures}).`,
    );
  }
  if (arm.valueSum !== undefined && !Number.isFinite(arm.valueSum)) {
    throw new RangeError(`${name} valueSum must be a finite number.`);
  }
}

function checkShare(share: number): void {
  if (!(share > 0 && share < 1)) {
    throw new RangeError(`The expected share of the alternate must be between 0 and 1, not ${share}.`);
  }
}

function checkProbability(value: number, name: string): void {
  if (!(value >= 0 && value <= 1)) throw new RangeError(`${name} must be between 0 and 1, not ${value}.`);
}

function checkMixingVariance(value: number): void {
  if (!(Number.isFinite(value) && value > 0)) {
    throw new RangeError(`The mixing variance must be a positive number, not ${value}.`);
  }
}
