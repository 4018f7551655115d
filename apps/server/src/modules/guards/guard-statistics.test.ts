import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { checkGuard, type GuardCheckInput } from './guard-decision';
import { GUARD_TUNING_UNITS, harmInterval, mixtureRho2, sequenceHalfWidth } from './guard-statistics';
import { arm } from '../../../test/statistics-reference';
import { EVEN_SHARES, POWER_RAMP, RAMP_SHARES, median, simulateRamps } from '../../../test/guard-simulation';

/*
 * The guard's statistics (docs/adr/0026-guarded-rollouts.md): the confidence sequence against a
 * published value and against numerical integration, and simulated ramps read at every check.
 * `npx tsx apps/server/test/guard-simulation.ts` prints the simulations' figures.
 */

/** The mixture likelihood ratio of `estimate` against `null0`, by Simpson's rule over the mixture. */
function mixtureRatioByIntegration(estimate: number, null0: number, variance: number, tau2: number): number {
  const sd = Math.sqrt(tau2);
  const steps = 4000;
  const from = null0 - 12 * sd;
  const h = (24 * sd) / steps;
  const density = (x: number, mean: number, v: number) =>
    Math.exp(-((x - mean) ** 2) / (2 * v)) / Math.sqrt(2 * Math.PI * v);
  let sum = 0;
  for (let i = 0; i <= steps; i += 1) {
    const theta = from + i * h;
    const weight = i === 0 || i === steps ? 1 : i % 2 ? 4 : 2;
    sum += weight * density(estimate, theta, variance) * density(theta, null0, tau2);
  }
  return (sum * h) / 3 / density(estimate, null0, variance);
}

/** The upper end of the sequence found by bisection: where the integrated ratio reaches 1/alpha. */
function upperByIntegration(estimate: number, unitVariance: number, units: number, alpha: number): number {
  const variance = unitVariance / units;
  const tau2 = unitVariance * mixtureRho2(alpha);
  let inside = estimate;
  let outside = estimate + 50 * Math.sqrt(variance);
  for (let i = 0; i < 80; i += 1) {
    const middle = (inside + outside) / 2;
    if (mixtureRatioByIntegration(estimate, middle, variance, tau2) < 1 / alpha) inside = middle;
    else outside = middle;
  }
  return (inside + outside) / 2;
}

describe('the confidence sequence', () => {
  it('reproduces the published example: 100 of 1,000 against 130 of 1,000, tuned for 5,000 units, is −1.45 to +7.45 points', () => {
    // Waudby-Smith, Arbour, Sinha, Kennedy & Ramdas, "Time-uniform central limit theory and asymptotic
    // confidence sequences", Annals of Statistics 52(6), 2024: the asymptotic confidence sequence with
    // ρ tuned for n* = 5,000. For this test vector (n = 2,000, α = 0.05) ρ = 0.039840, the half-width
    // is 0.04452, and the interval on the difference of rates is [−0.0145, 0.0745].
    expect(Math.sqrt(mixtureRho2(0.05, 5_000))).toBeCloseTo(0.03984, 5);
    const reading = harmInterval({
      control: { exposures: 1000, conversions: 100 },
      treatment: { exposures: 1000, conversions: 130 },
      badDirection: 'increase',
      threshold: 0,
      alpha: 0.05,
      tuningUnits: 5_000,
    });
    expect(reading.contrast.estimate).toBeCloseTo(0.03, 12);
    expect(reading.contrast.upper - reading.contrast.estimate).toBeCloseTo(0.04452, 5);
    expect(reading.contrast.lower).toBeCloseTo(-0.0145, 4);
    expect(reading.contrast.upper).toBeCloseTo(0.0745, 4);
    expect(reading.harmed).toBe(false);
    expect(reading.relativeChange).toBeCloseTo(0.3, 12);
  });

  it('is the inversion of the normal-mixture likelihood ratio at 1/alpha, as numerical integration finds it', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.01, max: 0.3, noNaN: true }),
        fc.integer({ min: 200, max: 200_000 }),
        fc.constantFrom(0.01, 0.05, 0.1),
        (unitVariance, units, alpha) => {
          const closed = sequenceHalfWidth(unitVariance, units, alpha);
          const integrated = upperByIntegration(0, unitVariance, units, alpha);
          expect(Math.abs(closed - integrated)).toBeLessThan(1e-6 * closed);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('is wider than the fixed-horizon interval at every sample size: reading it at every check is paid for in width', () => {
    fc.assert(
      fc.property(arm(50, 100_000), arm(50, 100_000), (control, treatment) => {
        const reading = harmInterval({
          control,
          treatment,
          badDirection: 'increase',
          threshold: 0,
          alpha: 0.05,
        });
        const p = (a: typeof control) => a.conversions / a.exposures;
        const standardError = Math.sqrt(
          (p(control) * (1 - p(control))) / control.exposures +
            (p(treatment) * (1 - p(treatment))) / treatment.exposures,
        );
        const width = reading.contrast.upper - reading.contrast.estimate;
        expect(width).toBeGreaterThanOrEqual(1.959964 * standardError - 1e-12);
        expect(reading.contrast.lower).toBeLessThanOrEqual(reading.contrast.estimate);
      }),
    );
  });

  it('calls harm exactly when the relative interval lies past the threshold in the bad direction', () => {
    fc.assert(
      fc.property(
        arm(100, 50_000),
        arm(100, 50_000),
        fc.constantFrom<'increase' | 'decrease'>('increase', 'decrease'),
        fc.constantFrom(0, 0.05, 0.2, 0.5),
        (control, treatment, badDirection, threshold) => {
          fc.pre(control.conversions > 0);
          const reading = harmInterval({ control, treatment, badDirection, threshold, alpha: 0.05 });
          const interval = reading.relativeInterval!;
          const pastThreshold =
            badDirection === 'increase'
              ? interval.lower > threshold + 1e-12
              : interval.upper < -threshold - 1e-12;
          const clearlyInside =
            badDirection === 'increase'
              ? interval.lower < threshold - 1e-12
              : interval.upper > -threshold + 1e-12;
          if (pastThreshold) expect(reading.harmed).toBe(true);
          if (clearlyInside) expect(reading.harmed).toBe(false);
        },
      ),
    );
  });

  it('reads a metric with no conversions in the control arm on the absolute difference', () => {
    const reading = harmInterval({
      control: { exposures: 5000, conversions: 0 },
      treatment: { exposures: 5000, conversions: 60 },
      badDirection: 'increase',
      threshold: 0,
      alpha: 0.05,
    });
    expect(reading.relativeChange).toBeNull();
    expect(reading.relativeInterval).toBeNull();
    expect(reading.harmed).toBe(true);
  });

  it('refuses what is not a level or a threshold', () => {
    const control = { exposures: 10, conversions: 1 };
    expect(() =>
      harmInterval({ control, treatment: control, badDirection: 'increase', threshold: 0, alpha: 0 }),
    ).toThrow(RangeError);
    expect(() =>
      harmInterval({ control, treatment: control, badDirection: 'decrease', threshold: 1, alpha: 0.05 }),
    ).toThrow(RangeError);
    expect(() => sequenceHalfWidth(-1, 10, 0.05)).toThrow(RangeError);
    expect(GUARD_TUNING_UNITS).toBe(5_000);
  });
});

const base: GuardCheckInput = {
  controlExposures: 2000,
  treatmentExposures: 2000,
  step: { controlExposures: 1000, treatmentExposures: 1000, intendedShare: 0.5 },
  metrics: [
    {
      goalKey: 'error',
      badDirection: 'increase',
      threshold: 0,
      controlConversions: 20,
      treatmentConversions: 22,
    },
  ],
  alpha: 0.05,
  minExposuresPerArm: 500,
  hoursWithoutTraffic: 0,
  noTrafficHours: 24,
};

describe('a check of a guarded ramp', () => {
  it('waits until both arms have their minimum, and reads nothing before', () => {
    const check = checkGuard({ ...base, controlExposures: 499 });
    expect(check.verdict).toBe('waiting');
    expect(check.metrics).toEqual([]);
  });

  it('is healthy when no metric shows harm, and says what it read', () => {
    const check = checkGuard(base);
    expect(check.verdict).toBe('healthy');
    expect(check.metrics[0]).toMatchObject({
      goalKey: 'error',
      control: { exposures: 2000, conversions: 20 },
      treatment: { exposures: 2000, conversions: 22 },
      harmed: false,
    });
    expect(check.metrics[0]!.relativeChange).toBeCloseTo(0.1, 12);
  });

  it('calls a regression on the metric that shows harm, even when the split is off', () => {
    const check = checkGuard({
      ...base,
      step: { controlExposures: 1000, treatmentExposures: 1300, intendedShare: 0.5 },
      metrics: [
        ...base.metrics,
        {
          goalKey: 'purchase',
          badDirection: 'decrease',
          threshold: 0.05,
          controlConversions: 400,
          treatmentConversions: 200,
        },
      ],
    });
    expect(check.verdict).toBe('regression');
    expect(check.harmedGoals).toEqual(['purchase']);
    expect(check.sampleRatio?.flagged).toBe(true);
  });

  it('flags a sample ratio mismatch on the step’s own users, against the share the step intends', () => {
    const skewed = checkGuard({
      ...base,
      step: { controlExposures: 900, treatmentExposures: 100, intendedShare: 0.25 },
    });
    expect(skewed.verdict).toBe('sample-ratio-mismatch');
    const asIntended = checkGuard({
      ...base,
      step: { controlExposures: 750, treatmentExposures: 250, intendedShare: 0.25 },
    });
    expect(asIntended.verdict).toBe('healthy');
    expect(checkGuard({ ...base, step: { ...base.step, intendedShare: 1 } }).sampleRatio).toBeNull();
  });

  it('reports no traffic once the rule has had no exposure for the configured hours', () => {
    expect(checkGuard({ ...base, hoursWithoutTraffic: 24 }).verdict).toBe('no-traffic');
    expect(checkGuard({ ...base, hoursWithoutTraffic: 23.9 }).verdict).toBe('healthy');
    expect(
      checkGuard({ ...base, controlExposures: 0, treatmentExposures: 0, hoursWithoutTraffic: 30 }).verdict,
    ).toBe('no-traffic');
  });
});

describe('simulated guarded ramps', () => {
  it.each([
    {
      label: 'errors at 1 %, ramp 10 → 25 → 50 %',
      rate: 0.01,
      shares: RAMP_SHARES,
      badDirection: 'increase' as const,
    },
    {
      label: 'errors at 1 %, even split',
      rate: 0.01,
      shares: EVEN_SHARES,
      badDirection: 'increase' as const,
    },
    { label: 'purchases at 10 %, ramp', rate: 0.1, shares: RAMP_SHARES, badDirection: 'decrease' as const },
  ])(
    'A/A, $label: 1,000 ramps checked 20 times call a regression in at most 5 %',
    ({ rate, shares, badDirection }) => {
      const outcomes = simulateRamps({
        ramps: 1000,
        shares,
        usersPerCheck: 1000,
        controlRate: rate,
        treatmentRate: rate,
        badDirection,
        seed: 11,
      });
      const falseRegressions = outcomes.filter((outcome) => outcome.detectedAt !== null).length;
      expect(falseRegressions).toBeLessThanOrEqual(50);
      // Sample-ratio checks stay rare too: users are split as each step intends.
      expect(outcomes.filter((outcome) => outcome.sampleRatioFlagged).length).toBeLessThanOrEqual(50);
    },
  );

  it('detects errors going from 1 % to 3 % before 10,000 exposures per arm in at least 80 % of 1,000 ramps', () => {
    const outcomes = simulateRamps({
      ramps: 1000,
      ...POWER_RAMP,
      controlRate: 0.01,
      treatmentRate: 0.03,
      seed: 7,
    });
    const detected = outcomes.filter(
      (outcome) => outcome.treatmentExposures !== null && outcome.treatmentExposures < 10_000,
    );
    expect(detected.length).toBeGreaterThanOrEqual(800);
    // Nothing is read before each arm has its 500 users.
    expect(median(detected.map((outcome) => outcome.treatmentExposures!))).toBeGreaterThanOrEqual(500);
    expect(detected.every((outcome) => outcome.controlExposures! >= 500)).toBe(true);
  });

  it('does not call a small harm below the threshold a regression', () => {
    const outcomes = simulateRamps({
      ramps: 300,
      ...POWER_RAMP,
      controlRate: 0.1,
      treatmentRate: 0.102,
      threshold: 0.2,
      seed: 5,
    });
    expect(outcomes.filter((outcome) => outcome.detectedAt !== null).length).toBeLessThanOrEqual(15);
  });
});
