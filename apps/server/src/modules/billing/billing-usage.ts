import type { MONTHLY_LIMIT_KEYS } from '@vexil/core';
import { formatCount } from '@vexil/core';

/** The calendar month (UTC) `at` falls in: the period of the monthly usage counts. */
export function monthOf(at: Date): { start: Date; end: Date } {
  const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  const end = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
  return { start, end };
}

const WARNING_NOUNS: Record<(typeof MONTHLY_LIMIT_KEYS)[number], string> = {
  maxApplicationUniqueUsers: 'application users',
  maxImpressions: 'impressions',
};

/** The warning of a monthly limit reached: it never stops evaluation (docs/product.md §9). */
export function usageWarningMessage(key: (typeof MONTHLY_LIMIT_KEYS)[number], used: number, limit: number) {
  return `${formatCount(used)} ${WARNING_NOUNS[key]} this month: your plan includes ${formatCount(limit)}. Features keep evaluating; upgrade your plan to stay within it.`;
}
