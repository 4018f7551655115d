import {
  withinLimit,
  type BooleanLimitKey,
  type CountedLimitKey,
  type NumericLimitKey,
  type PlanCounts,
  type Usage,
} from '@vexil/core';
import { limitMessage } from '@vexil/core/messages';
import { useFlag } from '../../../lib/flags';
import { useOptionalSession, useSession } from '../../../lib/session';
import { usePlanCounts } from '../api/get-plan-counts';

/** A count of GET /api/v1/billing/usage. */
export type UsageCount = {
  [K in keyof Usage]: Usage[K] extends number ? K : never;
}[keyof Usage];

/** The usage figure each limit is compared with. */
export const USAGE_OF_LIMIT: Readonly<Record<NumericLimitKey, UsageCount>> = {
  maxOrganisationUsers: 'seats',
  maxApplicationUniqueUsers: 'applicationUniqueUsersUsed',
  maxImpressions: 'impressionsUsed',
  maxProjects: 'projectsUsed',
  maxEnvironments: 'environmentsUsed',
  maxFeatures: 'featuresUsed',
};

export type PlanLimit = {
  /** The plan's limit, or null when there is none. */
  limit: number | null;
  /** Whether one more may be created: below the limit, no limit, or the count not known. */
  allowed: boolean;
  /** Why not, e.g. "Only 10 feature(s) allowed."; null when allowed. */
  message: string | null;
};

/** The counts every member may read (GET /api/v1/billing/limits); the monthly ones are not among them. */
const COUNT_OF_LIMIT: Partial<Record<NumericLimitKey, keyof PlanCounts>> = {
  maxOrganisationUsers: 'seats',
  maxProjects: 'projectsUsed',
  maxEnvironments: 'environmentsUsed',
  maxFeatures: 'featuresUsed',
} satisfies Record<CountedLimitKey, keyof PlanCounts>;

/**
 * docs/product.md §5/§9 "Plan limits": with the billing flag on and a subscription, whether one more item
 * counted by `key` fits the plan. `count` is what the caller already knows (the session's projects,
 * the team's members); without it the count comes from GET /api/v1/billing/limits, which every member
 * may read, asked only when the plan has a limit. The server is the authority and refuses anyway:
 * while the count is unknown (loading, or the call failed) creating stays allowed, and the refusal
 * says the same words with the upgrade link.
 */
export function usePlanLimit(key: NumericLimitKey, count?: number): PlanLimit {
  const billing = useFlag('billing');
  const { subscription } = useSession();
  const limit = (billing && subscription ? subscription.limits[key] : null) ?? null;
  const counted = COUNT_OF_LIMIT[key];
  const counts = usePlanCounts({ enabled: limit !== null && count === undefined && counted !== undefined });
  const used = count ?? (counted ? counts.data?.[counted] : undefined);
  const allowed = limit === null || used === undefined || withinLimit(used, limit);
  return { limit, allowed, message: allowed || limit === null ? null : limitMessage(key, limit) };
}

/**
 * Whether the plan includes a capability such as experiments (`variantTesting`): always with the
 * billing flag off or without a subscription (or outside a session), as the server decides
 * (docs/product.md §9).
 */
export function usePlanAllows(capability: BooleanLimitKey): boolean {
  const billing = useFlag('billing');
  const subscription = useOptionalSession()?.subscription;
  return !billing || !subscription || subscription.limits[capability];
}
