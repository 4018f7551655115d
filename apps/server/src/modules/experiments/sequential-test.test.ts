import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  DEFAULT_MIXING_VARIANCE,
  alwaysValidPvalue,
  analyseExperiment,
  mixtureSprtPvalue,
  twoProportionZTest,
  type ArmPair,
} from './statistics';
import {
  arm,
  control,
  mixtureByIntegration,
  readDaily,
  simulate,
  variation,
} from '../../../test/statistics-reference';

/*
 * The sequential mode of an experiment (docs/adr/0015-experiment-statistics.md): the mixture likelihood
 * ratio against numerical integration, the running minimum over looks, and simulated A/A experiments
 * read every day: the sequential mode must keep false winners at 5 % or fewer.
 */

describe('the sequential mode', () => {
  it('computes the mixture likelihood ratio as numerical integration does, for random inputs', () => {
    fc.assert(
      fc.property(
        arm(100, 200_000),
        arm(100, 200_000),
        fc.constantFrom(1e-6, 1e-5, DEFAULT_MIXING_VARIANCE, 1e-3, 1e-2),
        (a, b, tau2) => {
          const pooledConversions = a.conversions + b.conversions;
          fc.pre(pooledConversions > 0 && pooledConversions < a.exposures + b.exposures);
          const pvalue = mixtureSprtPvalue(a, b, tau2);
          const reference = mixtureByIntegration(a, b, tau2);
          expect(Math.abs(pvalue - reference)).toBeLessThanOrEqual(
            1e-7 * Math.max(pvalue, reference) + 1e-300,
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('does not call the test vector a winner on a single look: one look is weaker evidence than a planned one', () => {
    const result = analyseExperiment({
      control: control(1000, 100),
      variation: variation(1000, 130),
      mode: 'sequential',
    });
    expect(result.mode).toBe('sequential');
    expect(result.mixingVariance).toBe(DEFAULT_MIXING_VARIANCE);
    expect(result.zscore).toBeCloseTo(2.1027, 4);
    expect(result.pvalue).toBeGreaterThan(0.05);
    expect(result.confidence).toBeCloseTo(1 - result.pvalue, 12);
    expect(result.winningVariation).toBeNull();
  });

  it('declares a winner once the evidence is strong enough', () => {
    const result = analyseExperiment({
      control: control(5000, 500),
      variation: variation(5000, 650),
      mode: 'sequential',
    });
    expect(result.confidence).toBeGreaterThan(0.99);
    expect(result.winningVariation).toBe('on');
  });

  it('keeps the running minimum: the p-value never rises, whether looks are replayed or carried over', () => {
    const [looks] = simulate({
      experiments: 1,
      days: 30,
      usersPerDay: 300,
      controlRate: 0.1,
      variationRate: 0.115,
      seed: 3,
    });
    const carried = readDaily(looks!, 'sequential').map((analysis) => analysis.pvalue);
    for (let day = 1; day < carried.length; day += 1) {
      expect(carried[day]).toBeLessThanOrEqual(carried[day - 1]!);
    }
    const last = looks!.at(-1)!;
    const replayed = analyseExperiment({
      control: { key: 'off', ...last.control },
      variation: { key: 'on', ...last.variation },
      mode: 'sequential',
      sequential: { earlierLooks: looks!.slice(0, -1) },
    });
    expect(replayed.pvalue).toBe(carried.at(-1));
    expect(alwaysValidPvalue(looks!)).toBe(carried.at(-1));
  });

  it('ignores looks at which the result was not valid yet', () => {
    const early: ArmPair = {
      control: { exposures: 1000, conversions: 0 },
      variation: { exposures: 1000, conversions: 12 },
    };
    expect(mixtureSprtPvalue(early.control, early.variation)).toBeLessThan(0.05);
    expect(alwaysValidPvalue([early])).toBe(1);
  });

  describe('on 1,000 simulated A/A experiments read every day for 30 days', () => {
    let runs: ArmPair[][];
    beforeAll(() => {
      // 200 new users a day at a 10 % conversion rate in both arms: about 3,000 users per arm by day 30.
      runs = simulate({
        experiments: 1_000,
        days: 30,
        usersPerDay: 200,
        controlRate: 0.1,
        variationRate: 0.1,
        seed: 20_260_329,
      });
    });

    it('the sequential mode declares a winner in at most 5 % of them', () => {
      const falseWinners = runs.filter((looks) =>
        readDaily(looks, 'sequential').some((analysis) => analysis.winningVariation !== null),
      ).length;
      expect(falseWinners / runs.length).toBeLessThanOrEqual(0.05);
    });

    it('while the fixed mode, read the same way, declares far more false winners', () => {
      const falseWinners = runs.filter((looks) =>
        readDaily(looks, 'fixed').some((analysis) => analysis.winningVariation !== null),
      ).length;
      expect(falseWinners / runs.length).toBeGreaterThan(0.1);
    });

    it('the fixed mode’s p-values, read once at the end, are uniform (Kolmogorov–Smirnov)', () => {
      const pvalues = runs
        .map((looks) => {
          const last = looks.at(-1)!;
          return twoProportionZTest(last.control, last.variation).pvalue;
        })
        .sort((a, b) => a - b);
      const n = pvalues.length;
      const distance = Math.max(...pvalues.map((p, i) => Math.max((i + 1) / n - p, p - i / n)));
      // The 5 % critical value of the one-sample Kolmogorov–Smirnov statistic is 1.36/√n.
      expect(distance).toBeLessThan(1.36 / Math.sqrt(n));
      const significant = pvalues.filter((p) => p < 0.05).length / n;
      expect(significant).toBeGreaterThan(0.03);
      expect(significant).toBeLessThan(0.07);
    });
  });

  it('still finds a real effect: 10 % against 13 % is found within 30 days in most experiments', () => {
    const runs = simulate({
      experiments: 200,
      days: 30,
      usersPerDay: 200,
      controlRate: 0.1,
      variationRate: 0.13,
      seed: 5,
    });
    const found = runs.filter((looks) =>
      readDaily(looks, 'sequential').some((analysis) => analysis.winningVariation === 'on'),
    ).length;
    expect(found / runs.length).toBeGreaterThan(0.5);
  });
});
