import type { Limits, Product } from '@vexil/core';
import type { SubscriptionChange } from '../subscriptions/subscriptions.types';

/*
 * Where plans are sold and paid (docs/adr/0016-billing-providers.md). Two implementations:
 * `local`, the self-hosting default (plans from configuration, subscriptions only in the database,
 * in-app pages for "Manage Billing Details" and "Update Subscription"), and `stripe` (Checkout and
 * the Billing Portal through the official `stripe` package; the subscription follows its webhooks).
 * The subscriptions module owns the subscription rows; a provider only answers where to send the
 * user and, for webhooks, what changed.
 */

/**
 * A plan on sale with the limits a subscription to it gets (Stripe: from the product's metadata,
 * `maxProjects` and so on). Limits left out are unlimited (numbers) or included (capabilities). The
 * API lists products without them; the billing service copies them into the catalogue tables and,
 * at each purchase, into the subscription.
 */
export type CatalogueProduct = Product & { limits?: Partial<Limits> };

/** What the provider is told about the organisation asking. */
export type BillingCustomer = {
  organisationId: string;
  organisationName: string;
  /** The admin asking, who becomes the billing contact of a new customer. */
  email: string;
  /** The provider's customer id, once there is one. */
  externalCustomerId: string | null;
  /** The provider's subscription id, once there is one. */
  externalSubscriptionId: string | null;
  /** Seats to bill: members plus pending invitations. */
  seats: number;
};

/** Where the provider sends the browser back to (the dashboard's Billing tab). */
export type ReturnUrls = { returnUrl: string; successUrl: string; cancelUrl: string };

/**
 * The page to open, and the provider's customer id it is for: a provider that had to create the
 * customer first (Stripe, on the first "Manage Billing Details" or purchase) returns the new id here
 * for the service to store, so that the next call reuses it. `null` for providers without customers.
 */
export type ProviderRedirect = { url: string; externalCustomerId: string | null };

/** A change of a subscription the provider reports: the subscriptions module applies it. */
export type { SubscriptionChange };

/** A verified webhook: its id (processed at most once) and what it changes, if anything. */
export type ProviderEvent = { id: string; type: string; change: SubscriptionChange | null };

/** The provider refused a subscription change; `detail` is shown to the user. */
export class SubscriptionChangeRefused extends Error {
  constructor(readonly detail: string) {
    super(detail);
    this.name = 'SubscriptionChangeRefused';
  }
}

/** The provider could not be reached or answered an error: "unable to access the billing portal". */
export class BillingProviderUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BillingProviderUnavailable';
  }
}

/** A webhook whose signature or timestamp does not verify: answered 400, never processed. */
export class WebhookSignatureInvalid extends Error {
  constructor(message = 'The webhook signature could not be verified.') {
    super(message);
    this.name = 'WebhookSignatureInvalid';
  }
}

export interface BillingProvider {
  readonly kind: 'local' | 'stripe';
  /** The plans on sale, with their prices by interval and their limits (GET /api/v1/products/). */
  products(): Promise<CatalogueProduct[]>;
  /** "Manage Billing Details": the page to open (POST /api/v1/billing/subscription/manage). */
  manageUrl(customer: BillingCustomer, urls: ReturnUrls): Promise<ProviderRedirect>;
  /**
   * "Update Subscription" to the price `priceId` (POST /api/v1/billing/subscription/change): the
   * page to open (Checkout for a first purchase), or SubscriptionChangeRefused with why.
   */
  changeUrl(customer: BillingCustomer, priceId: string, urls: ReturnUrls): Promise<ProviderRedirect>;
  /**
   * A webhook's raw body and signature header, verified (signature and timestamp tolerance); rejects
   * with WebhookSignatureInvalid (answer 400), or BillingProviderUnavailable when the provider could
   * not be asked for the subscription's current state (answer 503 without recording the event, so
   * the provider delivers it again). Only providers that send webhooks implement it.
   */
  verifyWebhook?(rawBody: Buffer, signature: string | undefined): Promise<ProviderEvent>;
}
