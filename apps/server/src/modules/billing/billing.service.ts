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
import type { NewSubscriptionRow } from '../../db/schema/index';
import { ForbiddenError, LimitReachedError } from '../../errors';
import * as repo from './billing.repository';
import type { BillingCatalogue, CataloguePlan, PriceInterval } from './catalogue';
import type { SubscriptionRecord } from './billing.types';

export const DAY_MS = 24 * 60 * 60 * 1000;

/** docs/product.md §4: the toast for an inactive subscription, and the refusal of changes meanwhile. */
export const INACTIVE_ACCOUNT = 'Your account is inactive. Please purchase a subscription.';
/** The provider's states that end the subscription: no changes until a plan is bought. */
const INACTIVE_STATUSES: ReadonlySet<SubscriptionRecord['status']> = new Set([
  'inactive',
  'canceled',
  'unpaid',
  'incomplete_expired',
  // Stripe pauses a subscription whose trial ended without a payment method.
  'paused',
]);

/**
 * Whether the subscription is inactive at `at` (docs/product.md §4): the provider ended it, or its trial is
 * over without a purchase. Computed when read, so a trial ends on time without a job to end it.
 */
export function isInactive(row: Pick<SubscriptionRecord, 'status' | 'trialEnd'>, at: Date): boolean {
  if (INACTIVE_STATUSES.has(row.status)) return true;
  return row.status === 'trialing' && row.trialEnd !== null && row.trialEnd.getTime() <= at.getTime();
}

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

/** The columns of a subscription to a plan; `seats` sets the quantity and the total. */
export type PlanChoice =
  | { kind: 'free' }
  | { kind: 'plan'; plan: CataloguePlan; interval: PriceInterval; priceRowId: string | null };

/**
 * The subscription columns a plan gives (price copied, limits copied), for the trial, the local
 * checkout and `npm run billing -- set-plan`. The provider's ids and the billing contact are not
 * touched.
 */
export function planColumns(
  catalogue: BillingCatalogue,
  choice: PlanChoice,
  seats: number,
): Pick<
  NewSubscriptionRow,
  | 'priceId'
  | 'productName'
  | 'currency'
  | 'interval'
  | 'intervalCount'
  | 'amount'
  | 'unitLabel'
  | 'quantity'
  | 'total'
  | 'percentOff'
  | 'amountOff'
  | 'limits'
> {
  const quantity = Math.max(1, seats);
  if (choice.kind === 'free') {
    return {
      priceId: null,
      productName: catalogue.free.name,
      currency: catalogue.currency,
      interval: 'month',
      intervalCount: 1,
      amount: 0,
      unitLabel: 'seat',
      quantity,
      total: 0,
      percentOff: null,
      amountOff: null,
      limits: { ...catalogue.free.limits },
    };
  }
  const price = choice.plan.prices[choice.interval]!;
  return {
    priceId: choice.priceRowId,
    productName: choice.plan.name,
    currency: catalogue.currency,
    interval: choice.interval,
    intervalCount: 1,
    amount: price.amount,
    unitLabel: 'seat',
    quantity,
    total: price.amount * quantity,
    percentOff: null,
    amountOff: null,
    limits: { ...choice.plan.limits },
  };
}

export type BillingService = ReturnType<typeof createBillingService>;

/**
 * Plan limits and the subscription's state (docs/product.md §4, §6, §9). They apply only while the `billing`
 * UI flag is on and the organisation has a subscription; a self-hosted organisation without one (the
 * demo) is unlimited. The bottom of the module tree: the routes, the provider and the webhooks are in
 * billing-account.service.ts.
 */
export function createBillingService(deps: {
  db: Database;
  uiFlags: Record<UiFlag, boolean>;
  /** The Free plan and the trial's plan (BILLING_PLANS_FILE). */
  catalogue: BillingCatalogue;
  /** BILLING_TRIAL_DAYS: 0 starts new organisations on the Free plan. */
  trialDays: number;
  now?: () => Date;
}) {
  const { db, uiFlags, catalogue, trialDays } = deps;
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
     * Throws the 400 of docs/product.md §8 when `adding` more items would pass the limit: the check
     * passes while the count is below the limit or there is none (§9). The count is billing's own, the
     * one the usage shows. Call it inside the write's transaction, after locking the organisation, so
     * concurrent creations cannot both pass.
     */
    async assertWithinLimit(
      executor: Executor,
      organisationId: string,
      key: repo.CountedLimitKey,
      adding = 1,
    ): Promise<void> {
      const limits = await limitsFor(executor, organisationId);
      const limit = limits?.[key];
      if (limit === null || limit === undefined) return;
      const used = await repo.countUsed(executor, organisationId, key);
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
      return withinLimit(await repo.countActiveMembers(executor, organisationId), limit);
    },

    /** How many more items the plan allows (Infinity when unlimited). */
    async remaining(executor: Executor, organisationId: string, key: repo.CountedLimitKey): Promise<number> {
      const limits = await limitsFor(executor, organisationId);
      const limit = limits?.[key];
      if (limit === null || limit === undefined) return Number.POSITIVE_INFINITY;
      return Math.max(0, limit - (await repo.countUsed(executor, organisationId, key)));
    },

    /** Whether the subscription is active now (true without billing or without a subscription). */
    async isActive(organisationId: string, executor: Executor = db): Promise<boolean> {
      if (!uiFlags.billing) return true;
      const row = await repo.findSubscription(executor, organisationId);
      return !row || !isInactive(row, now());
    },

    /**
     * docs/product.md §4: while the subscription is inactive (trial over, nothing bought, or ended by the
     * provider) features keep evaluating but nobody changes them: 403 `subscription_inactive`.
     */
    async assertActive(organisationId: string, executor: Executor = db): Promise<void> {
      if (!uiFlags.billing) return;
      const row = await repo.findSubscription(executor, organisationId);
      if (row && isInactive(row, now())) throw new ForbiddenError(INACTIVE_ACCOUNT, 'subscription_inactive');
    },

    /** The subscription as the initial payload carries it; null without billing or a subscription. */
    async subscriptionFor(organisationId: string, executor: Executor = db): Promise<Subscription | null> {
      if (!uiFlags.billing) return null;
      const row = await repo.findSubscription(executor, organisationId);
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
        await repo.insertSubscriptionIfNone(tx, organisationId, {
          status: 'active',
          ...planColumns(catalogue, { kind: 'free' }, 1),
        });
        return;
      }
      const plan = catalogue.trialPlan;
      const interval: PriceInterval = plan.prices.month ? 'month' : 'year';
      const priceRow = await repo.findCataloguePrice(tx, plan.prices[interval]!.id);
      await repo.insertSubscriptionIfNone(tx, organisationId, {
        status: 'trialing',
        trialEnd: new Date(at.getTime() + trialDays * DAY_MS),
        ...planColumns(catalogue, { kind: 'plan', plan, interval, priceRowId: priceRow?.priceId ?? null }, 1),
      });
    },
  };
}

/** The API's subscription (docs/product.md §3): status folded to active or inactive, trial days rounded up. */
export function toSubscription(row: SubscriptionRecord, at: Date): Subscription {
  const trialLeftMs = row.trialEnd ? row.trialEnd.getTime() - at.getTime() : null;
  const inTrial = row.status === 'trialing' && trialLeftMs !== null && trialLeftMs > 0;
  const hasPrice =
    row.productName !== null && row.currency !== null && row.interval !== null && row.amount !== null;
  return {
    id: row.externalSubscriptionId ?? row.id,
    status: isInactive(row, at) ? 'inactive' : 'active',
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
