import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import normalCdf from '@stdlib/stats-base-dists-normal-cdf';
import { analyseExperiment, sampleRatioMismatch } from './statistics';
import { control, seededRandom, variation } from '../../../test/statistics-reference';

/*
 * The sample-ratio-mismatch check of an experiment (docs/adr/0015-experiment-statistics.md): a split far
 * from the configured one is flagged in plain words, a fair one rarely.
 */

describe('the sample-ratio-mismatch check', () => {
  it('flags a 60/40 split of 10,000 users against a configured 50/50, in plain words', () => {
    const result = analyseExperiment({ control: control(6000, 600), variation: variation(4000, 400) });
    expect(result.sampleRatio).toMatchObject({ flagged: true, observedVariationShare: 0.4 });
    expect(result.sampleRatio.pvalue).toBeLessThan(0.001);
    expect(result.sampleRatio.message).toContain('The alternate (on) got 40 % of the 10,000 exposed users');
    expect(result.sampleRatio.message).toContain('where 50 % was expected');
    expect(result.sampleRatio.message).toContain('do not trust these results until the cause is found');
  });

  it('does not flag a fair split, a small chance imbalance, or 60/40 when 40 % was configured', () => {
    expect(sampleRatioMismatch(5000, 5000)).toMatchObject({ flagged: false, pvalue: 1, message: null });
    const chance = sampleRatioMismatch(5100, 4900);
    expect(chance.pvalue).toBeGreaterThan(0.04);
    expect(chance.flagged).toBe(false);
    expect(sampleRatioMismatch(6000, 4000, 0.4).flagged).toBe(false);
    expect(sampleRatioMismatch(0, 0)).toMatchObject({ flagged: false, pvalue: 1, observedVariationShare: 0 });
  });

  it('agrees with the one-sample z-test of the alternate’s share for random inputs', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.double({ min: 0.05, max: 0.95, noNaN: true }),
        (c, v, share) => {
          fc.pre(c + v > 0);
          const n = c + v;
          const z = (v - n * share) / Math.sqrt(n * share * (1 - share));
          const reference = 2 * normalCdf(-Math.abs(z), 0, 1);
          const result = sampleRatioMismatch(c, v, share);
          expect(Math.abs(result.pvalue - reference)).toBeLessThan(1e-9);
          expect(result.flagged).toBe(result.pvalue < 0.001);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('rarely flags fair experiments: about 1 in 1,000', () => {
    const random = seededRandom(11);
    let flagged = 0;
    for (let experiment = 0; experiment < 2_000; experiment += 1) {
      let v = 0;
      for (let user = 0; user < 1_000; user += 1) if (random() < 0.5) v += 1;
      if (sampleRatioMismatch(1_000 - v, v).flagged) flagged += 1;
    }
    expect(flagged).toBeLessThanOrEqual(10);
  });
});
