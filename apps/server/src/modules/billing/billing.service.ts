import {
  LIMIT_KEYS,
  withinLimit,
  type BooleanLimitKey,
  type Limits,
  type NumericLimitKey,
  type Subscription,
  type UiFlag,
} from '@vexil/core';
import type { Database, Executor } from '../../db/client';
import { ForbiddenError, LimitReachedError } from '../../errors';
import * as repo from './billing.repository';
import type { SubscriptionRecord } from './billing.types';

const DAY_MS = 24 * 60 * 60 * 1000;

/** docs/product.md §4: the toast for an inactive subscription, and the refusal of feature changes meanwhile. */
export const INACTIVE_ACCOUNT = 'Your account is inactive. Please purchase a subscription.';
const INACTIVE_STATUSES: ReadonlySet<SubscriptionRecord['status']> = new Set([
  'inactive',
  'canceled',
  'unpaid',
  'incomplete_expired',
]);

/** What each numeric limit counts, for the "Only {n} …(s) allowed." message (docs/product.md §8 Feature limit). */
const LIMIT_NOUNS: Readonly<Record<NumericLimitKey, string>> = {
  maxOrganisationUsers: 'user',
  maxApplicationUniqueUsers: 'application user',
  maxImpressions: 'impression',
  maxProjects: 'project',
  maxEnvironments: 'environment',
  maxFeatures: 'feature',
};

/** `Only 1 project(s) allowed.` — the wording of docs/product.md §8's feature limit, for every limit. */
export function limitMessage(key: NumericLimitKey, limit: number): string {
  return `Only ${limit} ${LIMIT_NOUNS[key]}(s) allowed.`;
}

/** A stored limits object with every key present: a missing number is unlimited, a missing capability allowed. */
export function completeLimits(stored: SubscriptionRecord['limits']): Limits {
  const limits = {} as Record<string, number | boolean | null>;
  for (const key of LIMIT_KEYS) {
    const value = stored[key];
    limits[key] = key === 'auditLog' || key === 'variantTesting' ? value !== false : (value ?? null);
  }
  return limits as Limits;
}

export type BillingService = ReturnType<typeof createBillingService>;

/**
 * Plan limits (docs/product.md §6, §9). They apply only while the `billing` UI flag is on and the organisation
 * has a subscription; a self-hosted organisation without one is unlimited.
 */
export function createBillingService(deps: {
  db: Database;
  uiFlags: Record<UiFlag, boolean>;
  now?: () => Date;
}) {
  const { db, uiFlags } = deps;
  const now = deps.now ?? (() => new Date());

  async function limitsFor(executor: Executor, organisationId: string): Promise<Limits | null> {
    if (!uiFlags.billing) return null;
    const row = await repo.findSubscription(executor, organisationId);
    return row ? completeLimits(row.limits) : null;
  }

  return {
    limitsFor,

    /** Whether the plan includes a capability such as the audit log. */
    async allows(
      organisationId: string,
      capability: BooleanLimitKey,
      executor: Executor = db,
    ): Promise<boolean> {
      const limits = await limitsFor(executor, organisationId);
      return limits === null || limits[capability];
    },

    /**
     * Throws the 400 of docs/product.md §8 when one more item would pass the limit. Call it inside the write's
     * transaction, after locking the organisation, so concurrent creations cannot both pass.
     */
    async assertWithinLimit(
      executor: Executor,
      organisationId: string,
      key: NumericLimitKey,
      count: () => Promise<number>,
    ): Promise<void> {
      const limits = await limitsFor(executor, organisationId);
      const limit = limits?.[key];
      if (limit === null || limit === undefined) return;
      if (!withinLimit(await count(), limit)) throw new LimitReachedError(limitMessage(key, limit));
    },

    /** How many more items the plan allows (Infinity when unlimited). */
    async remaining(
      executor: Executor,
      organisationId: string,
      key: NumericLimitKey,
      count: () => Promise<number>,
    ): Promise<number> {
      const limits = await limitsFor(executor, organisationId);
      const limit = limits?.[key];
      if (limit === null || limit === undefined) return Number.POSITIVE_INFINITY;
      return Math.max(0, limit - (await count()));
    },

    /**
     * docs/product.md §4: while the subscription is inactive (trial over, nothing bought) features keep
     * evaluating but nobody changes them.
     */
    async assertActive(organisationId: string, executor: Executor = db): Promise<void> {
      if (!uiFlags.billing) return;
      const row = await repo.findSubscription(executor, organisationId);
      if (row && INACTIVE_STATUSES.has(row.status))
        throw new ForbiddenError(INACTIVE_ACCOUNT, 'plan_required');
    },

    /** The subscription as the initial payload carries it; null without billing or a subscription. */
    async subscriptionFor(organisationId: string): Promise<Subscription | null> {
      if (!uiFlags.billing) return null;
      const row = await repo.findSubscription(db, organisationId);
      return row ? toSubscription(row, now()) : null;
    },
  };
}

function toSubscription(row: SubscriptionRecord, at: Date): Subscription {
  const trialLeftMs = row.trialEnd ? row.trialEnd.getTime() - at.getTime() : null;
  const inTrial = row.status === 'trialing' && trialLeftMs !== null && trialLeftMs > 0;
  const hasPrice =
    row.productName !== null && row.currency !== null && row.interval !== null && row.amount !== null;
  return {
    id: row.externalSubscriptionId ?? row.id,
    status: INACTIVE_STATUSES.has(row.status) ? 'inactive' : 'active',
    quantity: row.quantity,
    total: row.total ?? 0,
    percentOff: row.percentOff,
    amountOff: row.amountOff,
    inTrial,
    daysUntilEndOfTrial: inTrial && trialLeftMs !== null ? Math.ceil(trialLeftMs / DAY_MS) : null,
    price: hasPrice
      ? {
          productName: row.productName!,
          currency: row.currency!,
          interval: row.interval!,
          intervalCount: row.intervalCount ?? 1,
          amount: row.amount!,
          unitLabel: row.unitLabel,
        }
      : null,
    limits: completeLimits(row.limits),
  };
}
