import fc from 'fast-check';
import chisquareCdf from '@stdlib/stats-base-dists-chisquare-cdf';
import {
  analyseExperiment,
  type ArmCounts,
  type ArmPair,
  type ExperimentAnalysis,
  type ExperimentArm,
} from '../src/modules/experiments/statistics';

/*
 * What the tests of the experiment statistics (apps/server/src/modules/experiments/*.test.ts) compare
 * against: arms and random arms, independent reference computations, and simulated experiments read
 * every day.
 */

export const control = (exposures: number, conversions: number): ExperimentArm => ({
  key: 'off',
  exposures,
  conversions,
});
export const variation = (exposures: number, conversions: number): ExperimentArm => ({
  key: 'on',
  exposures,
  conversions,
});

/** An arm with 0..maxExposures exposures and 0..exposures conversions, edges included. */
export const arm = (minExposures: number, maxExposures: number): fc.Arbitrary<ArmCounts> =>
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
export function numbersIn(value: unknown, path = '$'): Array<[string, number]> {
  if (typeof value === 'number') return [[path, value]];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => numbersIn(inner, `${path}.${key}`));
}

/** Pearson's χ² of the 2×2 table (converted / not, per arm) and its p-value, 1 degree of freedom. */
export function pearson2x2(a: ArmCounts, b: ArmCounts): { chiSquare: number; pvalue: number } {
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
export function mixtureByIntegration(a: ArmCounts, b: ArmCounts, tau2: number): number {
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
export function seededRandom(seed: number): () => number {
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
export function simulate(options: {
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
export function readDaily(looks: ArmPair[], mode: 'fixed' | 'sequential'): ExperimentAnalysis[] {
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
