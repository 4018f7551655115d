/**
 * Plan limits and usage (docs/product.md §9). A limit of `null` or `undefined` means "no limit".
 */

/** Limits that cap a count. */
export const NUMERIC_LIMIT_KEYS = [
  'maxOrganisationUsers',
  'maxApplicationUniqueUsers',
  'maxImpressions',
  'maxProjects',
  'maxEnvironments',
  'maxFeatures',
] as const;

/**
 * Numeric limits on what an organisation holds at any moment (seats, projects, environments,
 * features): counted when one more is created, and when a change of plan is previewed.
 */
export const COUNTED_LIMIT_KEYS = [
  'maxOrganisationUsers',
  'maxProjects',
  'maxEnvironments',
  'maxFeatures',
] as const;

/** The monthly limits that only warn: going past them never stops evaluation (docs/product.md §9). */
export const MONTHLY_LIMIT_KEYS = ['maxApplicationUniqueUsers', 'maxImpressions'] as const;

/** Limits that switch a plan capability on or off. */
export const BOOLEAN_LIMIT_KEYS = ['auditLog', 'variantTesting'] as const;

/** Every key of a subscription's `limits` object, in docs/product.md §3 order. */
export const LIMIT_KEYS = [
  'maxOrganisationUsers',
  'auditLog',
  'variantTesting',
  'maxApplicationUniqueUsers',
  'maxImpressions',
  'maxProjects',
  'maxEnvironments',
  'maxFeatures',
] as const;

/** A numeric limit name such as `maxProjects`. */
export type NumericLimitKey = (typeof NUMERIC_LIMIT_KEYS)[number];
/** A boolean limit name: `auditLog` or `variantTesting`. */
export type BooleanLimitKey = (typeof BOOLEAN_LIMIT_KEYS)[number];
/** Any limit name. */
export type LimitKey = (typeof LIMIT_KEYS)[number];
/** A limit on a count held at any moment, such as `maxProjects`. */
export type CountedLimitKey = (typeof COUNTED_LIMIT_KEYS)[number];
/** A limit on a monthly count: `maxApplicationUniqueUsers` or `maxImpressions`. */
export type MonthlyLimitKey = (typeof MONTHLY_LIMIT_KEYS)[number];

/** A count limit; `null` means unlimited. */
export type Limit = number | null | undefined;

/** The shape of a plan's limits. */
export type PlanLimits = { [K in NumericLimitKey]: number | null } & { [K in BooleanLimitKey]: boolean };

/**
 * The fixed Free plan (docs/product.md §9: single seat, 1 project, 2 environments). The spec is silent on
 * the rest; we leave features, application users and impressions unlimited and keep the audit
 * log and variant testing for paid plans, which is what the Free card advertises by omission.
 */
export const FREE_PLAN_LIMITS: Readonly<PlanLimits> = {
  maxOrganisationUsers: 1,
  auditLog: false,
  variantTesting: false,
  maxApplicationUniqueUsers: null,
  maxImpressions: null,
  maxProjects: 1,
  maxEnvironments: 2,
  maxFeatures: null,
};

/** Enterprise: everything unlimited (docs/product.md §9, "contact sales"). */
export const ENTERPRISE_PLAN_LIMITS: Readonly<PlanLimits> = {
  maxOrganisationUsers: null,
  auditLog: true,
  variantTesting: true,
  maxApplicationUniqueUsers: null,
  maxImpressions: null,
  maxProjects: null,
  maxEnvironments: null,
  maxFeatures: null,
};

/** Usage at or above this percentage of a limit shows a warning bar. */
export const WARNING_PERCENT = 90;
/** Usage at or above this percentage of a limit shows a danger bar. */
export const DANGER_PERCENT = 100;

/** Colour band of a usage progress bar. */
export type UsageLevel = 'ok' | 'warning' | 'danger';

function isUnlimited(limit: Limit): limit is null | undefined {
  return limit === null || limit === undefined || limit === Number.POSITIVE_INFINITY;
}

/**
 * Whether one more item may be created: passes when `count` is below `limit` or when no limit
 * is set (docs/product.md §9). `withinLimit(1, 1)` is false: the limit is reached.
 */
export function withinLimit(count: number, limit: Limit): boolean {
  return isUnlimited(limit) || count < limit;
}

/**
 * Share of the limit used, in percent, clamped to 0..100 for progress bars. Unlimited gives 0;
 * a limit of 0 counts as fully used.
 */
export function usagePercent(count: number, limit: Limit): number {
  if (isUnlimited(limit)) return 0;
  if (limit <= 0) return 100;
  return Math.min(100, Math.max(0, (count / limit) * 100));
}

/**
 * Progress-bar level (docs/product.md §9): `danger` at 100 % or more, `warning` at 90 % or more, else `ok`.
 * Unlimited is always `ok`.
 */
export function usageLevel(count: number, limit: Limit): UsageLevel {
  if (isUnlimited(limit)) return 'ok';
  // Cross-multiplied: count / limit would round (27 / 30 is not exactly 0.9).
  if (count * 100 >= limit * DANGER_PERCENT) return 'danger';
  if (count * 100 >= limit * WARNING_PERCENT) return 'warning';
  return 'ok';
}

/**
 * Formats a count with comma thousands separators (`10000` → `10,000`, `-1234.5` → `-1,234.5`),
 * independent of the host locale so server, browser and tests agree.
 */
export function formatCount(value: number): string {
  // toString switches to exponent notation from 1e21, which grouping would mangle.
  if (!Number.isFinite(value) || Math.abs(value) >= 1e21) return String(value);
  const [integer = '', fraction] = Math.abs(value).toString().split('.');
  const grouped = integer.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${value < 0 ? '-' : ''}${grouped}${fraction === undefined ? '' : `.${fraction}`}`;
}

/** A limit for the limits table: `Unlimited` when none is set, else {@link formatCount}. */
export function formatLimit(limit: Limit): string {
  return isUnlimited(limit) ? 'Unlimited' : formatCount(limit);
}

/** Billing intervals of a price. */
export const PRICE_INTERVALS = ['month', 'year'] as const;
/** One of {@link PRICE_INTERVALS}. */
export type PriceInterval = (typeof PRICE_INTERVALS)[number];

/**
 * Plan price per seat per month (docs/product.md §9): the amount is in cents; a yearly price is spread over
 * 12 months.
 */
export function monthlyPricePerSeat(price: { amount: number; interval: PriceInterval }): number {
  const units = price.amount / 100;
  return price.interval === 'year' ? units / 12 : units;
}
