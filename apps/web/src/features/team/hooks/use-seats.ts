import { usePlanLimit } from '../../../entities/billing/hooks/use-plan-limit';

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
  const { limit, allowed, message } = usePlanLimit('maxOrganisationUsers', used);
  return {
    used,
    limit,
    remaining: limit === null ? Number.POSITIVE_INFINITY : Math.max(0, limit - used),
    canInvite: allowed,
    limitMessage: message,
  };
}
