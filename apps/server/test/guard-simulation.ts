import { checkGuard, type GuardCheck } from '../src/modules/guards/guard-decision';
import type { BadDirection } from '../src/modules/guards/guard-statistics';
import { seededRandom } from './statistics-reference';

/*
 * Simulated guarded ramps for the guard's statistics (guard-statistics.test.ts), and a script that
 * prints their figures: `npx tsx apps/server/test/guard-simulation.ts`.
 */

export interface RampSimulation {
  ramps: number;
  /** The ramped variant's share of the rule at each check, in order: one entry per check. */
  shares: readonly number[];
  /** New users reaching the rule between two checks; each lands in the ramped variant with the check's share. */
  usersPerCheck: number;
  controlRate: number;
  treatmentRate: number;
  badDirection?: BadDirection;
  threshold?: number;
  alpha?: number;
  minExposuresPerArm?: number;
  seed: number;
}

export interface RampOutcome {
  /** The check (from 0) whose verdict was a regression, or null if none was. */
  detectedAt: number | null;
  /** The ramped variant's users when it was detected. */
  treatmentExposures: number | null;
  controlExposures: number | null;
  /** Whether a check flagged a sample ratio mismatch (none should: users are split as intended). */
  sampleRatioFlagged: boolean;
}

/**
 * Runs `ramps` ramps. Each user is exposed once, lands in an arm by the check's share and reaches the
 * goal with their arm's rate (exact Bernoulli draws); the guard reads the cumulative counts after every
 * check, as the scheduler does, and the ramp stops at its first regression.
 */
export function simulateRamps(options: RampSimulation): RampOutcome[] {
  const random = seededRandom(options.seed);
  const outcomes: RampOutcome[] = [];
  for (let ramp = 0; ramp < options.ramps; ramp += 1) {
    const counts = { control: 0, controlConversions: 0, treatment: 0, treatmentConversions: 0 };
    let outcome: RampOutcome = {
      detectedAt: null,
      treatmentExposures: null,
      controlExposures: null,
      sampleRatioFlagged: false,
    };
    const step = { control: 0, treatment: 0, share: Number.NaN };
    for (const [check, share] of options.shares.entries()) {
      if (share !== step.share) Object.assign(step, { control: 0, treatment: 0, share });
      for (let user = 0; user < options.usersPerCheck; user += 1) {
        if (random() < share) {
          step.treatment += 1;
          counts.treatment += 1;
          if (random() < options.treatmentRate) counts.treatmentConversions += 1;
        } else {
          step.control += 1;
          counts.control += 1;
          if (random() < options.controlRate) counts.controlConversions += 1;
        }
      }
      const reading: GuardCheck = checkGuard({
        controlExposures: counts.control,
        treatmentExposures: counts.treatment,
        step: { controlExposures: step.control, treatmentExposures: step.treatment, intendedShare: share },
        metrics: [
          {
            goalKey: 'metric',
            badDirection: options.badDirection ?? 'increase',
            threshold: options.threshold ?? 0,
            controlConversions: counts.controlConversions,
            treatmentConversions: counts.treatmentConversions,
          },
        ],
        alpha: options.alpha ?? 0.05,
        minExposuresPerArm: options.minExposuresPerArm ?? 500,
        hoursWithoutTraffic: 0,
        noTrafficHours: 24,
      });
      if (reading.sampleRatio?.flagged) outcome = { ...outcome, sampleRatioFlagged: true };
      if (reading.verdict === 'regression') {
        outcome = {
          ...outcome,
          detectedAt: check,
          treatmentExposures: counts.treatment,
          controlExposures: counts.control,
        };
        break;
      }
    }
    outcomes.push(outcome);
  }
  return outcomes;
}

/** A ramp's shares at 20 checks: five checks at each of 10, 25, 50 and 50 %. */
export const RAMP_SHARES: readonly number[] = [0.1, 0.25, 0.5, 0.5].flatMap((share) => Array(5).fill(share));
/** 20 checks of an even split. */
export const EVEN_SHARES: readonly number[] = Array(20).fill(0.5);
/** A true regression's ramp: an even split read every 500 users (about 250 per arm), up to 10,000 per arm. */
export const POWER_RAMP = { shares: Array(40).fill(0.5) as number[], usersPerCheck: 500 };

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The figures of the closing note: false regressions of A/A ramps, and detection of a true regression. */
function printFigures(): void {
  const aa = [
    { label: 'A/A, errors at 1 %, ramp 10→25→50 %', controlRate: 0.01, shares: RAMP_SHARES },
    { label: 'A/A, errors at 1 %, even split', controlRate: 0.01, shares: EVEN_SHARES },
    { label: 'A/A, conversions at 10 %, ramp', controlRate: 0.1, shares: RAMP_SHARES },
  ];
  for (const [index, row] of aa.entries()) {
    const outcomes = simulateRamps({
      ramps: 1000,
      shares: row.shares,
      usersPerCheck: 1000,
      controlRate: row.controlRate,
      treatmentRate: row.controlRate,
      seed: 100 + index,
    });
    const falseAlarms = outcomes.filter((outcome) => outcome.detectedAt !== null).length;
    const mismatches = outcomes.filter((outcome) => outcome.sampleRatioFlagged).length;
    console.log(
      `${row.label}: ${falseAlarms} false regressions in 1,000 ramps of 20 checks (${(falseAlarms / 10).toFixed(1)} %, alpha 5 %); ` +
        `${mismatches} flagged a sample ratio mismatch at some check`,
    );
  }
  const power = simulateRamps({
    ramps: 1000,
    ...POWER_RAMP,
    controlRate: 0.01,
    treatmentRate: 0.03,
    seed: 7,
  });
  const detected = power.filter(
    (outcome) => outcome.treatmentExposures !== null && outcome.treatmentExposures < 10_000,
  );
  console.log(
    `Errors 1 % → 3 %, read every 500 users: detected before 10,000 exposures per arm in ${detected.length / 10} % of 1,000 ramps; ` +
      `median ${median(detected.map((outcome) => outcome.treatmentExposures!))} exposures of the ramped variant at detection`,
  );
}

if (process.argv[1]?.endsWith('guard-simulation.ts')) printFigures();
