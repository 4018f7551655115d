import { compilePattern } from '../pattern';
import { isIsoDate, utcDateText } from '../rules';

/**
 * The 13 operators (docs/sdk-protocol.md §9.2) with the typed readings of the engine decisions: numbers
 * compare as numbers (numeric strings accepted), `in`/`notIn` and `equals` compare by value,
 * `matches` searches with RE2 and an invalid pattern is false, dates are ISO strings (date-only
 * means UTC midnight, a date-time without an offset UTC, whatever the host's time zone) or epoch
 * milliseconds. Nothing here throws.
 */

/** A user attribute value or a condition value. */
export type Value = unknown;

function toNumber(value: Value): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const parsed = Number(value);
    return Number.isFinite(parsed) ? parsed : null;
  }
  return null;
}

function toInstant(value: Value): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (value instanceof Date) {
    const time = value.getTime();
    return Number.isFinite(time) ? time : null;
  }
  if (typeof value !== 'string' || !isIsoDate(value)) return null;
  const time = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : utcDateText(value));
  return Number.isFinite(time) ? time : null;
}

/** Value equality: same primitives, or a number and a numeric string of the same number. */
export function sameValue(a: Value, b: Value): boolean {
  if (a === b) return typeof a !== 'number' || Number.isFinite(a);
  if (typeof a === 'number' || typeof b === 'number') {
    const x = toNumber(a);
    const y = toNumber(b);
    return x !== null && y !== null && x === y;
  }
  return false;
}

function compareNumbers(a: Value, b: Value, test: (x: number, y: number) => boolean): boolean {
  const x = toNumber(a);
  const y = toNumber(b);
  return x !== null && y !== null && test(x, y);
}

function compareInstants(a: Value, b: Value, test: (x: number, y: number) => boolean): boolean {
  const x = toInstant(a);
  const y = toInstant(b);
  return x !== null && y !== null && test(x, y);
}

function stringTest(a: Value, b: Value, test: (x: string, y: string) => boolean): boolean {
  return typeof a === 'string' && (typeof b === 'string' || typeof b === 'number') && test(a, String(b));
}

/** Whether one user value satisfies `operator` with the condition's values. */
export function satisfies(operator: string, userValue: Value, values: readonly Value[]): boolean {
  const first = values[0];
  switch (operator) {
    case 'equals':
      return sameValue(userValue, first);
    case 'contains':
      return stringTest(userValue, first, (a, b) => a.includes(b));
    case 'startsWith':
      return stringTest(userValue, first, (a, b) => a.startsWith(b));
    case 'endsWith':
      return stringTest(userValue, first, (a, b) => a.endsWith(b));
    case 'matches': {
      if (typeof userValue !== 'string' || typeof first !== 'string') return false;
      return compilePattern(first)?.test(userValue) ?? false;
    }
    case 'in':
      return values.some((value) => sameValue(userValue, value));
    case 'notIn':
      return (
        userValue !== null && userValue !== undefined && !values.some((value) => sameValue(userValue, value))
      );
    case 'greaterThan':
      return compareNumbers(userValue, first, (a, b) => a > b);
    case 'greaterThanOrEqual':
      return compareNumbers(userValue, first, (a, b) => a >= b);
    case 'lessThan':
      return compareNumbers(userValue, first, (a, b) => a < b);
    case 'lessThanOrEqual':
      return compareNumbers(userValue, first, (a, b) => a <= b);
    case 'before':
      return compareInstants(userValue, first, (a, b) => a < b);
    case 'after':
      return compareInstants(userValue, first, (a, b) => a > b);
    default:
      return false;
  }
}
