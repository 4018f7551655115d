import { checkArm, checkProbability, rate } from '../experiments/statistics-counts';
import type { ArmCounts } from '../experiments/statistics.types';

/*
 * The statistics of a guarded ramp (docs/adr/0026-guarded-rollouts.md): an always-valid confidence
 * interval (a confidence sequence) on how much worse the new variant does than the rule's other users,
 * which the guard may read at every check, as often as it likes, without raising its false alarms
 * above alpha.
 *
 * The interval is Robbins' normal-mixture boundary in the asymptotic form of Waudby-Smith, Arbour,
 * Sinha, Kennedy and Ramdas, "Time-uniform central limit theory and asymptotic confidence sequences"
 * (Annals of Statistics 52(6), 2024): for a mean estimated from n units whose variance per unit is s²,
 *
 *   estimate ± √s² · √( 2(nρ² + 1) / (n²ρ²) · ln( √(nρ² + 1) / α ) ),
 *
 * with ρ² = (−2 ln α + ln(−2 ln α + 1)) / n*, which makes the boundary tightest near n* units. It is
 * the same family as the experiments' mixture SPRT (experiments/sequential-test.ts) with the mixing
 * variance τ² = s²ρ²: inverting that test at 1/α gives this interval (guard-statistics.test.ts checks
 * it by numerical integration).
 */

/** Units (both arms together) the interval is tightest around; fixed, so every check reads the same sequence. */
export const GUARD_TUNING_UNITS = 5_000;

/** ρ² of the normal mixture, tuned for `tuningUnits` units at level alpha. */
export function mixtureRho2(alpha: number, tuningUnits: number = GUARD_TUNING_UNITS): number {
  checkAlpha(alpha);
  const logTerm = -2 * Math.log(alpha);
  return (logTerm + Math.log(logTerm + 1)) / tuningUnits;
}

/**
 * Half the width of the confidence sequence at `units` units of a mean whose variance per unit is
 * `unitVariance`. 0 when the variance is 0; Infinity before the first unit.
 */
export function sequenceHalfWidth(
  unitVariance: number,
  units: number,
  alpha: number,
  tuningUnits: number = GUARD_TUNING_UNITS,
): number {
  if (!(unitVariance >= 0) || !Number.isFinite(unitVariance)) {
    throw new RangeError(`The variance per unit must be a finite non-negative number, not ${unitVariance}.`);
  }
  if (units <= 0) return Number.POSITIVE_INFINITY;
  if (unitVariance === 0) return 0;
  const rho2 = mixtureRho2(alpha, tuningUnits);
  const spread = (2 * (units * rho2 + 1)) / (units * units * rho2);
  return Math.sqrt(unitVariance) * Math.sqrt(spread * Math.log(Math.sqrt(units * rho2 + 1) / alpha));
}

/** Which way a metric moves when the new variant does harm: errors `increase`, purchases `decrease`. */
export type BadDirection = 'increase' | 'decrease';

/** What {@link harmInterval} compares. */
export interface HarmQuestion {
  /** The rule's users who were not served the new variant. */
  control: ArmCounts;
  /** The rule's users served the new variant. */
  treatment: ArmCounts;
  badDirection: BadDirection;
  /** The relative change that counts as harm, 0 or more: 0.1 with `increase` is "10 % more than control". */
  threshold: number;
  /** One-sided level: the chance of ever calling harm where there is none, at most. */
  alpha: number;
  tuningUnits?: number;
}

/** An always-valid interval, in the units the field says. */
export interface Bounds {
  lower: number;
  upper: number;
}

/** What a check concludes about one metric. */
export interface HarmReading {
  controlRate: number;
  treatmentRate: number;
  /** treatment ÷ control − 1; null while the control arm has no conversions. */
  relativeChange: number | null;
  /**
   * The always-valid interval on the relative change, drawn against `threshold` (as +threshold for
   * `increase`, −threshold for `decrease`); null while the control arm has no conversions.
   */
  relativeInterval: Bounds | null;
  /** The contrast the decision reads: treatment − (1 ± threshold) × control, in rate units, and its interval. */
  contrast: { estimate: number } & Bounds;
  /** The whole interval lies past the threshold in the bad direction. */
  harmed: boolean;
}

/**
 * Whether the new variant does harm on one metric: the always-valid interval on the contrast
 * D = p_treatment − k·p_control, k = 1 + threshold (increase) or 1 − threshold (decrease), lies wholly
 * above 0 (increase) or below 0 (decrease). The contrast's variance per unit is
 * n·(v_t/n_t + k²·v_c/n_c) with v = p(1 − p) and n = n_t + n_c.
 *
 * The interval is two-sided at alpha and only its side in the bad direction is read, so a false
 * alarm has probability at most alpha (about alpha/2 in practice): the guard errs towards letting a
 * ramp go on rather than rolling back a healthy one.
 */
export function harmInterval(question: HarmQuestion): HarmReading {
  const { control, treatment, badDirection, threshold, alpha } = question;
  checkArm(control, 'control');
  checkArm(treatment, 'treatment');
  checkAlpha(alpha);
  if (!(threshold >= 0 && threshold < (badDirection === 'decrease' ? 1 : Number.POSITIVE_INFINITY))) {
    throw new RangeError(`The threshold must be 0 or more (below 1 for a decrease), not ${threshold}.`);
  }
  const controlRate = rate(control);
  const treatmentRate = rate(treatment);
  const factor = badDirection === 'increase' ? 1 + threshold : 1 - threshold;
  const estimate = treatmentRate - factor * controlRate;
  const units = control.exposures + treatment.exposures;
  let halfWidth = Number.POSITIVE_INFINITY;
  if (control.exposures > 0 && treatment.exposures > 0) {
    const variance =
      (treatmentRate * (1 - treatmentRate)) / treatment.exposures +
      (factor * factor * controlRate * (1 - controlRate)) / control.exposures;
    halfWidth = sequenceHalfWidth(units * variance, units, alpha, question.tuningUnits);
  }
  const contrast = { estimate, lower: estimate - halfWidth, upper: estimate + halfWidth };
  const harmed = badDirection === 'increase' ? contrast.lower > 0 : contrast.upper < 0;
  const shift = factor - 1;
  const relative =
    controlRate > 0
      ? {
          relativeChange: treatmentRate / controlRate - 1,
          relativeInterval: {
            lower: contrast.lower / controlRate + shift,
            upper: contrast.upper / controlRate + shift,
          },
        }
      : { relativeChange: null, relativeInterval: null };
  return { controlRate, treatmentRate, ...relative, contrast, harmed };
}

function checkAlpha(alpha: number): void {
  checkProbability(alpha, 'alpha');
  if (alpha === 0 || alpha >= 0.5) throw new RangeError(`alpha must be above 0 and below 0.5, not ${alpha}.`);
}
