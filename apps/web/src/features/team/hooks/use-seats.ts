import { withinLimit } from '@vexil/core';
import { useFlag } from '../../../lib/flags';
import { useSession } from '../../../lib/session';

export type Seats = {
  /** Members and pending invitations: each takes a seat. */
  used: number;
  /** The plan's seats, or null when there is no limit. */
  limit: number | null;
  /** How many more people may be invited (Infinity without a limit). */
  remaining: number;
  canInvite: boolean;
  /** Why Invite Users is disabled: "Only {n} user(s) allowed.". */
  limitMessage: string | null;
};

/**
 * docs/product.md §5/§9: with the billing flag on and a subscription, the plan's maxOrganisationUsers
 * caps members and pending invitations together; Invite Users is disabled once they fill it. Without a
 * subscription (billing off, self-hosted) there is no limit.
 */
export function useSeats(used: number): Seats {
  const billing = useFlag('billing');
  const { subscription } = useSession();
  const limit = (billing && subscription ? subscription.limits.maxOrganisationUsers : null) ?? null;
  const canInvite = withinLimit(used, limit);
  return {
    used,
    limit,
    remaining: limit === null ? Number.POSITIVE_INFINITY : Math.max(0, limit - used),
    canInvite,
    limitMessage: canInvite ? null : `Only ${limit} user(s) allowed.`,
  };
}
