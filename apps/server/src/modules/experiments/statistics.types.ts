/*
 * The shapes the experiment statistics (statistics.ts) take and give: counts per arm in, the
 * statistics page's figures out.
 */

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
