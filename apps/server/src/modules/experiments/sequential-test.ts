import {
  checkArm,
  checkMixingVariance,
  checkProbability,
  clampProbability,
  meetsMinimum,
  pooledVariance,
  rate,
} from './statistics-counts';
import type { ArmCounts, ArmPair } from './statistics.types';

/*
 * The sequential mode (docs/adr/0015-experiment-statistics.md): an always-valid p-value, a mixture
 * sequential probability ratio test, that may be read after every day without inflating false winners.
 */

/**
 * Default τ² of the sequential mode: a normal prior on the true difference of conversion rates with a
 * standard deviation of 1 percentage point, the size of effect conversion experiments usually look
 * for. The guarantee holds for any τ²; τ² only moves where the test is most powerful
 * (docs/adr/0015-experiment-statistics.md).
 */
export const DEFAULT_MIXING_VARIANCE = 0.01 ** 2;

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
