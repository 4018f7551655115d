import { DAY_MS, LIMIT_KEYS, type Limits, type Subscription } from '@vexil/core';
import type { SubscriptionRecord } from './subscriptions.types';

/*
 * What a stored subscription means now (docs/product.md §3, §4): pure, for billing's limit checks,
 * the initial payload and the Billing tab alike.
 */

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

/** A stored limits object with every key present: a missing number is unlimited, a missing capability allowed. */
export function completeLimits(stored: SubscriptionRecord['limits']): Limits {
  const limits = {} as Record<string, number | boolean | null>;
  for (const key of LIMIT_KEYS) {
    const value = stored[key];
    limits[key] = key === 'auditLog' || key === 'variantTesting' ? value !== false : (value ?? null);
  }
  return limits as Limits;
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
