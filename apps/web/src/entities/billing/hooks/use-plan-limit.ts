import { isOrganisationAdmin, withinLimit, type NumericLimitKey, type Usage } from '@vexil/core';
import { useFlag } from '../../../lib/flags';
import { useSession } from '../../../lib/session';
import { useUsage } from '../api/get-usage';

/** What each limit counts, for "Only {n} feature(s) allowed." (docs/product.md §8 "Feature limit"). */
const LIMIT_NOUNS: Readonly<Record<NumericLimitKey, string>> = {
  maxOrganisationUsers: 'user',
  maxApplicationUniqueUsers: 'application user',
  maxImpressions: 'impression',
  maxProjects: 'project',
  maxEnvironments: 'environment',
  maxFeatures: 'feature',
};

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

/** "Only 1 project(s) allowed.": the words the server refuses with, for every limit. */
export function limitMessage(key: NumericLimitKey, limit: number): string {
  return `Only ${limit} ${LIMIT_NOUNS[key]}(s) allowed.`;
}

export type PlanLimit = {
  /** The plan's limit, or null when there is none. */
  limit: number | null;
  /** Whether one more may be created: below the limit, no limit, or the count not known. */
  allowed: boolean;
  /** Why not, e.g. "Only 10 feature(s) allowed."; null when allowed. */
  message: string | null;
};

/**
 * docs/product.md §5/§9 "Plan limits": with the billing flag on and a subscription, whether one more item
 * counted by `key` fits the plan. `count` is what the caller already knows (the session's projects,
 * the team's members); without it the count comes from GET /api/v1/billing/usage, asked only when the
 * plan has a limit and only by organisation admins, who alone may read it. The server is the authority
 * and refuses anyway: while the count is unknown (loading, or another member) creating stays allowed,
 * and the refusal says the same words with the upgrade link.
 */
export function usePlanLimit(key: NumericLimitKey, count?: number): PlanLimit {
  const billing = useFlag('billing');
  const { subscription, principalUser } = useSession();
  const limit = (billing && subscription ? subscription.limits[key] : null) ?? null;
  const usage = useUsage({
    enabled: limit !== null && count === undefined && isOrganisationAdmin(principalUser),
  });
  const used = count ?? usage.data?.[USAGE_OF_LIMIT[key]];
  const allowed = limit === null || used === undefined || withinLimit(used, limit);
  return { limit, allowed, message: allowed || limit === null ? null : limitMessage(key, limit) };
}
