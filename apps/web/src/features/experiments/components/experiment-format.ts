import type { Experiment } from '@vexil/core';

/*
 * How the experiments screens word an experiment's state, its running time and its figures
 * (docs/product.md §4 "Experiment", §9: a winner at 95 % confidence, conversion to 2 decimals).
 */

/** Where an experiment is in its life: started once switched on, finished once it has an end date. */
export type ExperimentState = 'running' | 'finished' | 'notStarted';

export const STATE_LABELS: Record<ExperimentState, string> = {
  running: 'Running',
  finished: 'Finished',
  notStarted: 'Not started',
};

export const STATE_COLORS: Record<ExperimentState, string> = {
  running: 'teal',
  finished: 'blue',
  notStarted: 'gray',
};

export function experimentState(experiment: Pick<Experiment, 'startDate' | 'endDate'>): ExperimentState {
  if (experiment.endDate) return 'finished';
  if (experiment.startDate) return 'running';
  return 'notStarted';
}

/** The confidence at which a winner is declared (docs/product.md §9), as the server declares it. */
export { WINNING_CONFIDENCE } from '@vexil/core/stats';

/** A non-breaking space keeps a figure and its unit on one line. */
const NBSP = '\u00a0';

function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/** "3 days", "5 hours", "12 minutes" or "less than a minute": whole units, rounded down. */
export function durationText(from: Date, to: Date): string {
  const minutes = Math.floor(Math.max(0, to.getTime() - from.getTime()) / 60_000);
  if (minutes < 1) return 'less than a minute';
  if (minutes < 60) return plural(minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return plural(hours, 'hour');
  return plural(Math.floor(hours / 24), 'day');
}

/**
 * How long the experiment has run: "Running for 3 days" from its start until now, "Ran for 3 days"
 * from its start to its end; null before it starts.
 */
export function runningTimeText(
  experiment: Pick<Experiment, 'startDate' | 'endDate'>,
  now: Date = new Date(),
): string | null {
  if (!experiment.startDate) return null;
  const start = new Date(experiment.startDate);
  if (experiment.endDate) return `Ran for ${durationText(start, new Date(experiment.endDate))}`;
  return `Running for ${durationText(start, now)}`;
}

/**
 * A confidence (0..1) as a percentage to one decimal, rounded down so that 0.9996 never reads as a
 * certain "100.0 %" and 0.9499 never as a winning "95.0 %".
 */
export function confidenceText(confidence: number): string {
  const tenths = Math.floor(confidence * 1000 + 1e-9);
  return `${(tenths / 10).toFixed(1)}${NBSP}%`;
}

/** A rate (0..1) as a percentage to 2 decimals: 0.1234 → "12.34 %". */
export function rateText(rate: number): string {
  return `${(rate * 100).toFixed(2)}${NBSP}%`;
}

/** A p-value to 4 decimals, or "< 0.0001". */
export function pvalueText(pvalue: number): string {
  return pvalue < 0.0001 ? '< 0.0001' : pvalue.toFixed(4);
}

/** A z-score to 2 decimals, signed: "+2.10", "−0.35". */
export function zscoreText(zscore: number): string {
  return signed(zscore.toFixed(2));
}

/** A "+" before positive numbers and a real minus sign before negative ones. */
function signed(text: string): string {
  if (text.startsWith('-')) return /^-0(\.0*)?$/.test(text) ? text.slice(1) : `\u2212${text.slice(1)}`;
  return /^0(\.0*)?$/.test(text) ? text : `+${text}`;
}

/** A difference of two rates (0..1) in percentage points to 2 decimals: 0.03 → "+3.00 pp". */
export function pointsText(difference: number): string {
  return `${signed((difference * 100).toFixed(2))}${NBSP}pp`;
}

/** A relative change (0.3 = 30 % better) as a signed percentage to one decimal: "+30.0 %". */
export function liftText(lift: number): string {
  return `${signed((lift * 100).toFixed(1))}${NBSP}%`;
}

/** A count with thousands separators. */
export function countText(count: number): string {
  return count.toLocaleString('en');
}

/** A sum of goal values, to at most 2 decimals, with thousands separators. */
export function valueText(value: number): string {
  return value.toLocaleString('en', { maximumFractionDigits: 2 });
}
