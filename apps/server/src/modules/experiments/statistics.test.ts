import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { experimentStatisticsSchema } from '@vexil/core';
import { analyseExperiment, twoProportionZTest } from './statistics';
import { arm, control, numbersIn, pearson2x2, variation } from '../../../test/statistics-reference';

/*
 * The statistics of conversion experiments (docs/adr/0015-experiment-statistics.md): the z-test and
 * the analysis the statistics page shows: the test vector, an independent reference computation
 * for random inputs, and the properties a reader relies on (symmetry, validity, JSON-safe output). The
 * intervals, the sample-ratio check and the sequential mode have test files of their own beside it.
 */

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
