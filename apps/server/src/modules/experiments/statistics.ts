import { WINNING_CONFIDENCE, formatCount } from '@vexil/core';
import { DEFAULT_EXPECTED_VARIATION_SHARE, sampleRatioMismatch } from './sample-ratio';
import { DEFAULT_MIXING_VARIANCE, alwaysValidPvalue } from './sequential-test';
import { MIN_CONVERSIONS, MIN_EXPOSURES, checkArm, checkCount, rate } from './statistics-counts';
import type {
  ArmCounts,
  ExperimentAnalysis,
  ExperimentAnalysisInput,
  ExperimentArm,
  VariantStatistics,
} from './statistics.types';
import { differenceInterval, relativeLiftInterval, twoProportionZTest } from './two-proportion-test';

/*
 * The statistics of a conversion (A/B) experiment: pure functions over counts, no I/O. The methods
 * and their reasons are recorded in docs/adr/0015-experiment-statistics.md; the winner threshold is
 * docs/product.md §9 ("Experiment winner at 95 % confidence").
 *
 * This file puts them together (analyseExperiment) and is the one the rest of the server imports:
 * the z-test and intervals are two-proportion-test.ts, the sample-ratio check sample-ratio.ts, the
 * sequential mode sequential-test.ts, the counts and their checks statistics-counts.ts.
 */

export type * from './statistics.types';
export { MIN_CONVERSIONS, MIN_EXPOSURES } from './statistics-counts';
export {
  INTERVAL_LEVEL,
  differenceInterval,
  relativeLiftInterval,
  twoProportionZTest,
} from './two-proportion-test';
export { DEFAULT_EXPECTED_VARIATION_SHARE, SRM_ALPHA, sampleRatioMismatch } from './sample-ratio';
export { DEFAULT_MIXING_VARIANCE, alwaysValidPvalue, mixtureSprtPvalue } from './sequential-test';

/** Confidence at which a winner is declared (docs/product.md §9): core's, which the dashboard explains. */
export { WINNING_CONFIDENCE };

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
