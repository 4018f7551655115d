import type { SubscribedPrice } from '../subscriptions/subscriptions.types';

/** A catalogue price with its product, as a subscription copies it (amounts in cents per seat). */
export type CataloguePriceRecord = SubscribedPrice & {
  /** The payment provider's price id. */
  externalPriceId: string;
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

/** Where billing's services report what went wrong with the provider (the server's logger). */
export type Logger = {
  warn(object: Record<string, unknown>, message: string): void;
  info?(object: Record<string, unknown>, message: string): void;
};
