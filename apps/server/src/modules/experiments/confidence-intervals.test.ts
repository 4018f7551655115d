import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { analyseExperiment, differenceInterval, relativeLiftInterval } from './statistics';
import { arm, control, seededRandom, variation } from '../../../test/statistics-reference';

/*
 * The confidence intervals of an experiment (docs/adr/0015-experiment-statistics.md): the difference of
 * conversion rates (Newcombe) and the relative lift, against worked examples, for random inputs, and
 * their coverage.
 */

describe('the confidence intervals', () => {
  it('matches Newcombe’s worked example for the difference: 56/70 against 48/80 gives 0.0524 to 0.3339', () => {
    const interval = differenceInterval(
      { exposures: 80, conversions: 48 },
      { exposures: 70, conversions: 56 },
    );
    expect(interval?.estimate).toBeCloseTo(0.2, 12);
    expect(interval?.lower).toBeCloseTo(0.0524, 4);
    expect(interval?.upper).toBeCloseTo(0.3339, 4);
  });

  it('gives the test vector a difference of 3 points (0.2 to 5.8) and a lift of 30 % (1.7 % to 66.2 %)', () => {
    const result = analyseExperiment({ control: control(1000, 100), variation: variation(1000, 130) });
    expect(result.difference).toMatchObject({ level: 0.95 });
    expect(result.difference?.estimate).toBeCloseTo(0.03, 12);
    expect(result.difference?.lower).toBeCloseTo(0.002, 3);
    expect(result.difference?.upper).toBeCloseTo(0.058, 3);
    expect(result.relativeLift?.estimate).toBeCloseTo(0.3, 12);
    // ln(1.3) ± 1.96 √(1/130 − 1/1000 + 1/100 − 1/1000), mapped back with exp(·) − 1.
    const half = 1.959964 * Math.sqrt(1 / 130 - 1 / 1000 + 1 / 100 - 1 / 1000);
    expect(result.relativeLift?.lower).toBeCloseTo(1.3 * Math.exp(-half) - 1, 6);
    expect(result.relativeLift?.upper).toBeCloseTo(1.3 * Math.exp(half) - 1, 6);
  });

  it('always contains the observed difference and stays within −100 to +100 points', () => {
    fc.assert(
      fc.property(arm(1, 1_000_000), arm(1, 1_000_000), (a, b) => {
        const interval = differenceInterval(a, b)!;
        expect(interval.estimate).toBe(b.conversions / b.exposures - a.conversions / a.exposures);
        expect(interval.lower).toBeLessThanOrEqual(interval.estimate);
        expect(interval.upper).toBeGreaterThanOrEqual(interval.estimate);
        expect(interval.lower).toBeGreaterThanOrEqual(-1);
        expect(interval.upper).toBeLessThanOrEqual(1);
        // Even with no or all conversions in both arms, the interval keeps a width.
        expect(interval.upper - interval.lower).toBeGreaterThan(0);
      }),
      { numRuns: 500 },
    );
  });

  it('always contains the observed lift, never below −100 %; none when an arm has no conversions', () => {
    fc.assert(
      fc.property(arm(1, 1_000_000), arm(1, 1_000_000), (a, b) => {
        const interval = relativeLiftInterval(a, b);
        if (a.conversions === 0 || b.conversions === 0) {
          expect(interval).toBeNull();
          return;
        }
        expect(interval).not.toBeNull();
        const lift = (b.conversions * a.exposures) / (a.conversions * b.exposures) - 1;
        expect(Math.abs(interval!.estimate - lift)).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(lift)));
        expect(interval!.lower).toBeLessThanOrEqual(interval!.estimate);
        expect(interval!.upper).toBeGreaterThanOrEqual(interval!.estimate);
        expect(interval!.lower).toBeGreaterThanOrEqual(-1);
        expect(Number.isFinite(interval!.upper)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('covers the true difference about 95 % of the time', () => {
    const random = seededRandom(7);
    const draw = (n: number, p: number) => {
      let conversions = 0;
      for (let i = 0; i < n; i += 1) if (random() < p) conversions += 1;
      return { exposures: n, conversions };
    };
    let covered = 0;
    const trials = 2_000;
    for (let trial = 0; trial < trials; trial += 1) {
      const interval = differenceInterval(draw(400, 0.05), draw(300, 0.08))!;
      if (interval.lower <= 0.03 && 0.03 <= interval.upper) covered += 1;
    }
    expect(covered / trials).toBeGreaterThan(0.93);
    expect(covered / trials).toBeLessThan(0.97);
  });
});
