import type { Limits, PriceInterval } from '@vexil/core';

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
  interval: PriceInterval | null;
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
export type SubscribedPrice = {
  /** The catalogue's price row. */
  priceId: string;
  productName: string;
  currency: string;
  interval: PriceInterval;
  intervalCount: number;
  amount: number;
  unitLabel: string | null;
  limits: Partial<Limits>;
};

/**
 * What a write sets on the organisation's subscription; a field left out is left as it is (or its
 * default on a new subscription), null clears.
 */
export type SubscriptionValues = {
  status: ProviderSubscriptionStatus;
  quantity?: number;
  /** The catalogue's price row the price was copied from. */
  priceId?: string | null;
  productName?: string | null;
  currency?: string | null;
  interval?: PriceInterval | null;
  intervalCount?: number | null;
  amount?: number | null;
  unitLabel?: string | null;
  total?: number | null;
  percentOff?: number | null;
  amountOff?: number | null;
  limits?: Partial<Limits>;
  trialEnd?: Date | null;
  currentPeriodStart?: Date | null;
  currentPeriodEnd?: Date | null;
  cancelAt?: Date | null;
  externalCustomerId?: string | null;
  externalSubscriptionId?: string | null;
  billingEmail?: string | null;
  billingName?: string | null;
  billingPhone?: string | null;
  cardBrand?: string | null;
  cardLastFour?: string | null;
};

/** The billing contact "Manage Billing Details" shows; null clears each part. */
export type BillingContact = { email: string | null; name: string | null; phone: string | null };

/**
 * A change of a subscription the payment provider reports (Stripe: `customer.subscription.*`,
 * `checkout.session.completed`, `customer.updated`, `payment_method.attached`). Fields left undefined
 * are unchanged; null clears.
 */
export type SubscriptionChange = {
  /** The organisation it belongs to, when the provider carries it (Stripe: metadata.organisationId). */
  organisationId?: string | null;
  externalCustomerId: string;
  externalSubscriptionId?: string | null;
  status?: ProviderSubscriptionStatus;
  /** The provider's price id, which the catalogue maps to a product, its price and limits. */
  externalPriceId?: string | null;
  quantity?: number;
  trialEnd?: Date | null;
  currentPeriodStart?: Date | null;
  currentPeriodEnd?: Date | null;
  cancelAt?: Date | null;
  total?: number | null;
  percentOff?: number | null;
  amountOff?: number | null;
  card?: { brand: string | null; lastFour: string | null } | null;
  billingContact?: BillingContact | null;
};
