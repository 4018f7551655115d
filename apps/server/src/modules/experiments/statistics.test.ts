import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import chisquareCdf from '@stdlib/stats-base-dists-chisquare-cdf';
import normalCdf from '@stdlib/stats-base-dists-normal-cdf';
import { experimentStatisticsSchema } from '@vexil/core';
import {
  DEFAULT_MIXING_VARIANCE,
  alwaysValidPvalue,
  analyseExperiment,
  differenceInterval,
  mixtureSprtPvalue,
  relativeLiftInterval,
  sampleRatioMismatch,
  twoProportionZTest,
  type ArmCounts,
  type ArmPair,
  type ExperimentAnalysis,
  type ExperimentArm,
} from './statistics';

/*
 * The statistics of conversion experiments (docs/adr/0015-experiment-statistics.md): the test
 * vector, independent reference computations for random inputs, the properties a reader relies on
 * (symmetry, intervals around the estimate, JSON-safe output), the sample-ratio check, and simulated
 * A/A experiments read every day: the sequential mode must keep false winners at 5 % or fewer.
 */

const control = (exposures: number, conversions: number): ExperimentArm => ({
  key: 'off',
  exposures,
  conversions,
});
const variation = (exposures: number, conversions: number): ExperimentArm => ({
  key: 'on',
  exposures,
  conversions,
});

/** An arm with 0..maxExposures exposures and 0..exposures conversions, edges included. */
const arm = (minExposures: number, maxExposures: number): fc.Arbitrary<ArmCounts> =>
  fc.integer({ min: minExposures, max: maxExposures }).chain((exposures) =>
    fc.record({
      exposures: fc.constant(exposures),
      conversions: fc.oneof(
        fc.integer({ min: 0, max: exposures }),
        fc.constantFrom(0, exposures),
        fc.integer({ min: 0, max: Math.min(exposures, 30) }),
      ),
    }),
  );

/** Every number anywhere in a value, with its path. */
function numbersIn(value: unknown, path = '$'): Array<[string, number]> {
  if (typeof value === 'number') return [[path, value]];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => numbersIn(inner, `${path}.${key}`));
}

/** Pearson's χ² of the 2×2 table (converted / not, per arm) and its p-value, 1 degree of freedom. */
function pearson2x2(a: ArmCounts, b: ArmCounts): { chiSquare: number; pvalue: number } {
  const table = [
    [a.conversions, a.exposures - a.conversions],
    [b.conversions, b.exposures - b.conversions],
  ];
  const total = a.exposures + b.exposures;
  const rows = [a.exposures, b.exposures];
  const columns = [a.conversions + b.conversions, total - a.conversions - b.conversions];
  let chiSquare = 0;
  for (const row of [0, 1]) {
    for (const column of [0, 1]) {
      const expected = (rows[row]! * columns[column]!) / total;
      chiSquare += (table[row]![column]! - expected) ** 2 / expected;
    }
  }
  return { chiSquare, pvalue: 1 - chisquareCdf(chiSquare, 1) };
}

/**
 * The mixture likelihood ratio by numerical integration: ∫ φ(d; θ, V)/φ(d; 0, V) · φ(θ; 0, τ²) dθ
 * (Simpson's rule over the region that holds the mass), as a p-value 1/Λ capped at 1. Worked in logs
 * so large ratios do not overflow.
 */
function mixtureByIntegration(a: ArmCounts, b: ArmCounts, tau2: number): number {
  const pooled = (a.conversions + b.conversions) / (a.exposures + b.exposures);
  const v = pooled * (1 - pooled) * (1 / a.exposures + 1 / b.exposures);
  const d = b.conversions / b.exposures - a.conversions / a.exposures;
  const logIntegrand = (theta: number) =>
    (2 * d * theta - theta * theta) / (2 * v) -
    (theta * theta) / (2 * tau2) -
    0.5 * Math.log(2 * Math.PI * tau2);
  // The integrand is a Gaussian bump in θ; find its peak and width numerically, then integrate.
  const spread = Math.sqrt(Math.min(v, tau2));
  let low = -Math.abs(d) - 20 * spread;
  let high = Math.abs(d) + 20 * spread;
  for (let i = 0; i < 200; i += 1) {
    const m1 = low + (high - low) / 3;
    const m2 = high - (high - low) / 3;
    if (logIntegrand(m1) < logIntegrand(m2)) low = m1;
    else high = m2;
  }
  const peak = (low + high) / 2;
  const top = logIntegrand(peak);
  const from = peak - 40 * spread;
  const to = peak + 40 * spread;
  const steps = 20_000;
  const h = (to - from) / steps;
  let sum = 0;
  for (let i = 0; i <= steps; i += 1) {
    const weight = i === 0 || i === steps ? 1 : i % 2 === 1 ? 4 : 2;
    sum += weight * Math.exp(logIntegrand(from + i * h) - top);
  }
  const logRatio = top + Math.log((sum * h) / 3);
  return Math.min(1, Math.exp(-logRatio));
}

/** mulberry32: a small, fast, seeded 32-bit generator; uniform on [0, 1). */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * Simulated experiments: each day `usersPerDay` new users arrive, each goes to the alternate with
 * probability `share` and converts with its arm's rate (exact Bernoulli draws). Returns, per
 * experiment, the cumulative counts at the end of each day.
 */
function simulate(options: {
  experiments: number;
  days: number;
  usersPerDay: number;
  controlRate: number;
  variationRate: number;
  share?: number;
  seed: number;
}): ArmPair[][] {
  const random = seededRandom(options.seed);
  const share = options.share ?? 0.5;
  const runs: ArmPair[][] = [];
  for (let experiment = 0; experiment < options.experiments; experiment += 1) {
    const counts = { c: 0, cc: 0, v: 0, vc: 0 };
    const looks: ArmPair[] = [];
    for (let day = 0; day < options.days; day += 1) {
      for (let user = 0; user < options.usersPerDay; user += 1) {
        if (random() < share) {
          counts.v += 1;
          if (random() < options.variationRate) counts.vc += 1;
        } else {
          counts.c += 1;
          if (random() < options.controlRate) counts.cc += 1;
        }
      }
      looks.push({
        control: { exposures: counts.c, conversions: counts.cc },
        variation: { exposures: counts.v, conversions: counts.vc },
      });
    }
    runs.push(looks);
  }
  return runs;
}

/**
 * Reads an experiment every day the way the statistics page would, in the given mode, carrying the
 * always-valid p-value from one day to the next. Returns each day's analysis.
 */
function readDaily(looks: ArmPair[], mode: 'fixed' | 'sequential'): ExperimentAnalysis[] {
  let previousPvalue = 1;
  return looks.map((look) => {
    const analysis = analyseExperiment({
      control: { key: 'off', ...look.control },
      variation: { key: 'on', ...look.variation },
      mode,
      sequential: { previousPvalue },
    });
    previousPvalue = analysis.pvalue;
    return analysis;
  });
}

describe('the two-proportion z-test', () => {
  it('matches the test vector: 1000/100 against 1000/130 makes the alternate the winner', () => {
    const result = analyseExperiment({ control: control(1000, 100), variation: variation(1000, 130) });
    expect(result.zscore).toBeCloseTo(2.1027, 4);
    expect(result.pvalue).toBeCloseTo(0.0355, 4);
    expect(result.confidence).toBeCloseTo(1 - result.pvalue, 12);
    expect(result.validResult).toBe(true);
    expect(result.invalidReasons).toEqual([]);
    expect(result.winningVariation).toBe('on');
    expect(result.variantResults).toEqual({
      off: { impressions: 1000, goals: 100, conversionRate: 0.1 },
      on: { impressions: 1000, goals: 130, conversionRate: 0.13 },
    });
    expect(experimentStatisticsSchema.parse({ ...result, daily: [] })).toMatchObject({
      winningVariation: 'on',
    });
  });

  it('names the control as the winner when the control converts better', () => {
    const result = analyseExperiment({ control: control(1000, 130), variation: variation(1000, 100) });
    expect(result.zscore).toBeCloseTo(-2.1027, 4);
    expect(result.winningVariation).toBe('off');
  });

  it('declares no winner below 95 % confidence', () => {
    const result = analyseExperiment({ control: control(1000, 100), variation: variation(1000, 120) });
    expect(result.confidence).toBeLessThan(0.95);
    expect(result.validResult).toBe(true);
    expect(result.winningVariation).toBeNull();
  });

  it('agrees with Pearson’s χ² test of the 2×2 table for random inputs (z² = χ²)', () => {
    fc.assert(
      fc.property(arm(1, 1_000_000), arm(1, 1_000_000), (a, b) => {
        const pooledConversions = a.conversions + b.conversions;
        fc.pre(pooledConversions > 0 && pooledConversions < a.exposures + b.exposures);
        const { zscore, pvalue } = twoProportionZTest(a, b);
        const reference = pearson2x2(a, b);
        expect(Math.abs(zscore * zscore - reference.chiSquare)).toBeLessThanOrEqual(
          1e-9 * Math.max(1, reference.chiSquare),
        );
        expect(Math.abs(pvalue - reference.pvalue)).toBeLessThan(1e-9);
      }),
      { numRuns: 500 },
    );
  });

  it('is symmetric: swapping the arms negates z and keeps the p-value and the winner', () => {
    fc.assert(
      fc.property(arm(0, 100_000), arm(0, 100_000), (a, b) => {
        const forward = analyseExperiment({ control: { key: 'off', ...a }, variation: { key: 'on', ...b } });
        const swapped = analyseExperiment({ control: { key: 'on', ...b }, variation: { key: 'off', ...a } });
        expect(swapped.zscore).toBeCloseTo(-forward.zscore, 9);
        expect(swapped.pvalue).toBeCloseTo(forward.pvalue, 12);
        expect(swapped.winningVariation).toBe(forward.winningVariation);
        if (forward.difference && swapped.difference) {
          expect(swapped.difference.estimate).toBeCloseTo(-forward.difference.estimate, 12);
          expect(swapped.difference.lower).toBeCloseTo(-forward.difference.upper, 12);
          expect(swapped.difference.upper).toBeCloseTo(-forward.difference.lower, 12);
        }
      }),
    );
  });

  it.each([
    ['nobody exposed', control(0, 0), variation(0, 0)],
    ['one arm never exposed', control(500, 50), variation(0, 0)],
    ['no conversions anywhere', control(500, 0), variation(400, 0)],
    ['everybody converted', control(500, 500), variation(400, 400)],
  ])('reports no difference (z 0, p 1) when the test is undefined: %s', (_, a, b) => {
    const result = analyseExperiment({ control: a, variation: b });
    expect(result).toMatchObject({ zscore: 0, pvalue: 1, confidence: 0, winningVariation: null });
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });

  it('gives finite, JSON-safe figures that fit the API schema for any counts, in both modes', () => {
    fc.assert(
      fc.property(
        arm(0, 5_000),
        arm(0, 5_000),
        fc.constantFrom('fixed' as const, 'sequential' as const),
        fc.double({ min: 0.01, max: 0.99, noNaN: true }),
        (a, b, mode, share) => {
          const result = analyseExperiment({
            control: { key: 'off', ...a },
            variation: { key: 'on', ...b },
            mode,
            expectedVariationShare: share,
          });
          for (const [path, value] of numbersIn(result)) {
            expect(Number.isFinite(value), `${path} is ${value}`).toBe(true);
          }
          expect(JSON.parse(JSON.stringify(result))).toEqual(result);
          expect(() => experimentStatisticsSchema.parse({ ...result, daily: [] })).not.toThrow();
          expect(result.pvalue).toBeGreaterThanOrEqual(0);
          expect(result.pvalue).toBeLessThanOrEqual(1);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('says why a result is not valid yet, and then declares no winner however strong the difference', () => {
    const result = analyseExperiment({ control: control(42, 3), variation: variation(99, 60) });
    expect(result.validResult).toBe(false);
    expect(result.invalidReasons).toEqual([
      'Each variant needs at least 100 exposed users; the control (off) has 42.',
      'Each variant needs at least 100 exposed users; the alternate (on) has 99.',
      'Each variant needs at least 10 users who reached the goal; the control (off) has 3.',
    ]);
    expect(result.confidence).toBeGreaterThan(0.999);
    expect(result.winningVariation).toBeNull();
  });

  it('becomes valid at exactly 100 exposed users and 10 conversions per arm', () => {
    const result = analyseExperiment({ control: control(100, 10), variation: variation(100, 10) });
    expect(result.validResult).toBe(true);
    expect(result.invalidReasons).toEqual([]);
  });

  it('carries the optional value sums and the count of users who saw both variants', () => {
    const result = analyseExperiment({
      control: { ...control(200, 20), valueSum: 500 },
      variation: { ...variation(0, 0), valueSum: 0 },
      usersInBothVariants: 7,
    });
    expect(result.variantResults.off).toMatchObject({ valueSum: 500, valuePerImpression: 2.5 });
    expect(result.variantResults.on).toMatchObject({ valueSum: 0, valuePerImpression: 0 });
    expect(result.usersInBothVariants).toBe(7);
  });

  it.each([
    ['negative exposures', { control: control(-1, 0), variation: variation(10, 1) }],
    ['fractional conversions', { control: control(10, 1.5), variation: variation(10, 1) }],
    ['more conversions than exposures', { control: control(10, 11), variation: variation(10, 1) }],
    ['equal keys', { control: control(10, 1), variation: { ...control(10, 1) } }],
    ['a share of 1', { control: control(10, 1), variation: variation(10, 1), expectedVariationShare: 1 }],
    [
      'a zero mixing variance',
      {
        control: control(10, 1),
        variation: variation(10, 1),
        mode: 'sequential' as const,
        sequential: { mixingVariance: 0 },
      },
    ],
  ])('refuses impossible input: %s', (_, input) => {
    expect(() => analyseExperiment(input)).toThrow(RangeError);
  });
});

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
