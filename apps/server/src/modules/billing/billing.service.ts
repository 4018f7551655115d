import {
  DAY_MS,
  INACTIVE_ACCOUNT,
  limitMessage,
  withinLimit,
  type BooleanLimitKey,
  type CountedLimitKey,
  type Limits,
  type PriceInterval,
  type Subscription,
  type UiFlag,
} from '@vexil/core';
import type { Executor } from '../../db/client';
import { ForbiddenError, LimitReachedError } from '../../errors';
import type { BillingCatalogue } from '../../plans/catalogue';
import { planColumns } from '../subscriptions/plan-columns';
import { completeLimits, isInactive, toSubscription } from '../subscriptions/subscription-state';
import type { SubscriptionsService } from '../subscriptions/subscriptions.service';
import * as catalogueRepo from './billing-catalogue.repository';
import * as usageRepo from './billing-usage.repository';

/** docs/product.md §4: core's toast for an inactive subscription, and the refusal of changes meanwhile. */
export { INACTIVE_ACCOUNT };

export type BillingService = ReturnType<typeof createBillingService>;

/**
 * Plan limits and the subscription's state (docs/product.md §4, §6, §9). They apply only while the `billing`
 * UI flag is on and the organisation has a subscription; a self-hosted organisation without one (the
 * demo) is unlimited. Near the bottom of the module tree, above `subscriptions` (which alone writes
 * the subscription): the routes, the provider and the webhooks are in billing-account.service.ts.
 */
export function createBillingService(deps: {
  subscriptions: SubscriptionsService;
  uiFlags: Record<UiFlag, boolean>;
  /** The Free plan and the trial's plan (BILLING_PLANS_FILE). */
  catalogue: BillingCatalogue;
  /** BILLING_TRIAL_DAYS: 0 starts new organisations on the Free plan. */
  trialDays: number;
  now?: () => Date;
}) {
  const { subscriptions, uiFlags, catalogue, trialDays } = deps;
  const now = deps.now ?? (() => new Date());

  async function limitsFor(executor: Executor, organisationId: string): Promise<Limits | null> {
    if (!uiFlags.billing) return null;
    const row = await subscriptions.find(executor, organisationId);
    return row ? completeLimits(row.limits) : null;
  }

  return {
    limitsFor,

    /** Whether the plan includes a capability such as the audit log. */
    async allows(executor: Executor, organisationId: string, capability: BooleanLimitKey): Promise<boolean> {
      const limits = await limitsFor(executor, organisationId);
      return limits === null || limits[capability];
    },

    /**
     * Throws the 400 of docs/product.md §8 when `adding` more items would pass the limit: the check
     * passes while the count is below the limit or there is none (§9). The count is billing's own, the
     * one the usage shows. Call it inside the write's transaction, after locking the organisation, so
     * concurrent creations cannot both pass.
     */
    async assertWithinLimit(
      executor: Executor,
      organisationId: string,
      key: CountedLimitKey,
      adding = 1,
    ): Promise<void> {
      const limits = await limitsFor(executor, organisationId);
      const limit = limits?.[key];
      if (limit === null || limit === undefined) return;
      const used = await usageRepo.countUsed(executor, organisationId, key);
      if (!withinLimit(used + adding - 1, limit)) throw new LimitReachedError(limitMessage(key, limit));
    },

    /**
     * Whether one more member may become active (an invitation accepted): pending invitations took
     * their seats when sent, but the plan may have shrunk since, so the members already active are
     * counted against its seats again. Call it inside the write's transaction.
     */
    async hasSeatForNewMember(executor: Executor, organisationId: string): Promise<boolean> {
      const limit = (await limitsFor(executor, organisationId))?.maxOrganisationUsers;
      if (limit === null || limit === undefined) return true;
      return withinLimit(await usageRepo.countActiveMembers(executor, organisationId), limit);
    },

    /** How many more items the plan allows (Infinity when unlimited). */
    async remaining(executor: Executor, organisationId: string, key: CountedLimitKey): Promise<number> {
      const limits = await limitsFor(executor, organisationId);
      const limit = limits?.[key];
      if (limit === null || limit === undefined) return Number.POSITIVE_INFINITY;
      return Math.max(0, limit - (await usageRepo.countUsed(executor, organisationId, key)));
    },

    /** Whether the subscription is active now (true without billing or without a subscription). */
    async isActive(executor: Executor, organisationId: string): Promise<boolean> {
      if (!uiFlags.billing) return true;
      const row = await subscriptions.find(executor, organisationId);
      return !row || !isInactive(row, now());
    },

    /**
     * docs/product.md §4: while the subscription is inactive (trial over, nothing bought, or ended by the
     * provider) features keep evaluating but nobody changes them: 403 `subscription_inactive`.
     */
    async assertActive(executor: Executor, organisationId: string): Promise<void> {
      if (!uiFlags.billing) return;
      const row = await subscriptions.find(executor, organisationId);
      if (row && isInactive(row, now())) throw new ForbiddenError(INACTIVE_ACCOUNT, 'subscription_inactive');
    },

    /** The subscription as the initial payload carries it; null without billing or a subscription. */
    async subscriptionFor(executor: Executor, organisationId: string): Promise<Subscription | null> {
      if (!uiFlags.billing) return null;
      const row = await subscriptions.find(executor, organisationId);
      return row ? toSubscription(row, now()) : null;
    },

    /**
     * A new organisation's subscription (the sign-up wizard, in its transaction): a trial of the
     * catalogue's trial plan for BILLING_TRIAL_DAYS with that plan's limits, or the Free plan when
     * trials are off. Written whether or not the billing flag is on, so turning it on later finds it.
     */
    async startTrial(tx: Executor, organisationId: string): Promise<void> {
      const at = now();
      if (trialDays === 0) {
        await subscriptions.startIfNone(tx, organisationId, {
          status: 'active',
          ...planColumns(catalogue, { kind: 'free' }, 1),
        });
        return;
      }
      const plan = catalogue.trialPlan;
      const interval: PriceInterval = plan.prices.month ? 'month' : 'year';
      const priceRow = await catalogueRepo.findCataloguePrice(tx, plan.prices[interval]!.id);
      await subscriptions.startIfNone(tx, organisationId, {
        status: 'trialing',
        trialEnd: new Date(at.getTime() + trialDays * DAY_MS),
        ...planColumns(catalogue, { kind: 'plan', plan, interval, priceRowId: priceRow?.priceId ?? null }, 1),
      });
    },
  };
}
