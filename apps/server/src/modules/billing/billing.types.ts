import type { Limits, SubscriptionPrice } from '@vexil/core';

/**
 * A subscription's state as the payment provider names it; `inactive` is a trial that ended without
 * a purchase. The API folds them into core's `SubscriptionStatus` (`active` or `inactive`).
 */
export type ProviderSubscriptionStatus =
  | 'trialing'
  | 'active'
  | 'past_due'
  | 'unpaid'
  | 'canceled'
  | 'incomplete'
  | 'incomplete_expired'
  | 'paused'
  | 'inactive';

/**
 * The organisation's subscription as the module keeps it, from which core's `Subscription` is built.
 * The price is the one copied at subscription time, each part `null` when there is none; amounts are
 * in cents.
 */
export type SubscriptionRecord = {
  id: string;
  /** The payment provider's id, which the API shows when there is one. */
  externalSubscriptionId: string | null;
  status: ProviderSubscriptionStatus;
  /** Seats. */
  quantity: number;
  total: number | null;
  percentOff: number | null;
  amountOff: number | null;
  trialEnd: Date | null;
  productName: string | null;
  currency: string | null;
  interval: SubscriptionPrice['interval'] | null;
  intervalCount: number | null;
  amount: number | null;
  unitLabel: string | null;
  /** As stored: a missing number is unlimited, a missing capability allowed (see `completeLimits`). */
  limits: Partial<Limits>;
};

/** What GET /api/v1/billing/info and the provider's customer are made of. */
export type BillingDetails = {
  externalCustomerId: string | null;
  externalSubscriptionId: string | null;
  cardBrand: string | null;
  cardLastFour: string | null;
  billingEmail: string | null;
  billingName: string | null;
  billingPhone: string | null;
};

/** A catalogue price with its product, as a subscription copies it (amounts in cents per seat). */
export type CataloguePriceRecord = {
  priceId: string;
  externalPriceId: string;
  productName: string;
  currency: string;
  interval: SubscriptionPrice['interval'];
  intervalCount: number;
  amount: number;
  unitLabel: string | null;
  limits: Partial<Limits>;
};

/** The counts of GET /api/v1/billing/usage. */
export type UsageCounts = {
  seats: number;
  projects: number;
  environments: number;
  features: number;
  applicationUniqueUsers: number;
  impressions: number;
};
