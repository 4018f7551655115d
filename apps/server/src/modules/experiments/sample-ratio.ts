import chisquareCdf from '@stdlib/stats-base-dists-chisquare-cdf';
import { formatCount } from '@vexil/core';
import { checkCount, checkShare, clampProbability } from './statistics-counts';
import type { SampleRatioCheck } from './statistics.types';

/*
 * The sample-ratio-mismatch check (docs/adr/0015-experiment-statistics.md): whether users are split
 * between the variants as configured, without which no other figure can be trusted.
 */

/** A sample ratio mismatch is flagged below this p-value. */
export const SRM_ALPHA = 0.001;
/** Share of users the alternate is expected to get when the caller does not say. */
export const DEFAULT_EXPECTED_VARIATION_SHARE = 0.5;

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

/** A share as a percentage with at most one decimal: 0.4 → "40 %", 0.4567 → "45.7 %". */
function percent(share: number): string {
  return `${Number((share * 100).toFixed(1))} %`;
}
