import type { ArmCounts } from './statistics.types';

/*
 * What every statistic of an experiment (statistics.ts) starts from: the counts of an arm, checked,
 * and the quantities read from them.
 */

/** Exposed users each arm needs before a result is valid. */
export const MIN_EXPOSURES = 100;
/** Converted users each arm needs before a result is valid. */
export const MIN_CONVERSIONS = 10;

export function rate(arm: ArmCounts): number {
  return arm.exposures === 0 ? 0 : arm.conversions / arm.exposures;
}

/** p̄(1 − p̄)(1/n₁ + 1/n₂), the variance of p₂ − p₁ when both arms convert alike; 0 when undefined. */
export function pooledVariance(control: ArmCounts, variation: ArmCounts): number {
  if (control.exposures === 0 || variation.exposures === 0) return 0;
  const pooled = (control.conversions + variation.conversions) / (control.exposures + variation.exposures);
  return pooled * (1 - pooled) * (1 / control.exposures + 1 / variation.exposures);
}

export function meetsMinimum(arm: ArmCounts): boolean {
  return arm.exposures >= MIN_EXPOSURES && arm.conversions >= MIN_CONVERSIONS;
}

export function clampProbability(value: number): number {
  return Number.isNaN(value) ? 1 : Math.min(1, Math.max(0, value));
}

export function checkCount(value: number, name: string): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative integer, not ${value}.`);
  }
}

export function checkArm(arm: ArmCounts, name: string): void {
  checkCount(arm.exposures, `${name} exposures`);
  checkCount(arm.conversions, `${name} conversions`);
  if (arm.conversions > arm.exposures) {
    throw new RangeError(
      `${name} conversions (${arm.conversions}) cannot exceed its exposures (${arm.exposures}).`,
    );
  }
  if (arm.valueSum !== undefined && !Number.isFinite(arm.valueSum)) {
    throw new RangeError(`${name} valueSum must be a finite number.`);
  }
}

export function checkShare(share: number): void {
  if (!(share > 0 && share < 1)) {
    throw new RangeError(`The expected share of the alternate must be between 0 and 1, not ${share}.`);
  }
}

export function checkProbability(value: number, name: string): void {
  if (!(value >= 0 && value <= 1)) throw new RangeError(`${name} must be between 0 and 1, not ${value}.`);
}

export function checkMixingVariance(value: number): void {
  if (!(Number.isFinite(value) && value > 0)) {
    throw new RangeError(`The mixing variance must be a positive number, not ${value}.`);
  }
}
