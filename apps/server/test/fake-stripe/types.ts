import type { Params, StripeObject } from './wire';

export type RecordedRequest = {
  method: string;
  path: string;
  params: Params;
  idempotencyKey: string | null;
  stripeVersion: string | null;
};

export type FakePriceInput = {
  id?: string;
  interval: 'month' | 'year' | 'week' | 'day';
  /** Cents per seat. */
  amount: number | null;
  currency?: string;
  intervalCount?: number;
  active?: boolean;
  /** Charging a card for this price is declined (402 card_error), as Stripe's test card 4000 0000 0000 0002 would be. */
  declines?: boolean;
};

export type FakeProductInput = {
  id?: string;
  name: string;
  active?: boolean;
  /** Product › Marketing features in Stripe's dashboard. */
  marketingFeatures?: string[];
  metadata?: Record<string, string>;
  prices: FakePriceInput[];
  /** Which of `prices` (by index) is the product's default price. */
  defaultPrice?: number;
};

export type SignedWebhook = {
  event: StripeObject;
  /** The raw body as Stripe sends it. */
  payload: string;
  /** The `Stripe-Signature` header. */
  signature: string;
};

export type FakeStripe = {
  /** `http://127.0.0.1:{port}`, for `STRIPE_API_URL`. */
  url: string;
  secretKey: string;
  /** The webhook endpoint's signing secret (`whsec_…`), for `STRIPE_WEBHOOK_SECRET`. */
  webhookSecret: string;
  /** Every API request received, in order. */
  requests: RecordedRequest[];
  /** Any stored object by id, as the API would answer it unexpanded. */
  get<T = StripeObject>(id: string): T;
  /** Every stored object of a type (`customer`, `checkout.session`, …), oldest first. */
  all<T = StripeObject>(object: string): T[];
  addProduct(input: FakeProductInput): { product: StripeObject; prices: StripeObject[] };
  /** Archives a price in Stripe's dashboard: it can no longer be bought. */
  archivePrice(priceId: string): void;
  createCustomer(input?: { email?: string; name?: string; metadata?: Record<string, string> }): StripeObject;
  /** A subscription made directly (as an existing customer's), without Checkout. */
  createSubscription(input: {
    customer: string;
    price: string;
    quantity?: number;
    status?: string;
    trialEnd?: number | null;
    metadata?: Record<string, string>;
  }): StripeObject;
  /** The customer pays in Checkout: the session completes and its subscription is created. */
  completeCheckout(
    sessionId: string,
    options?: { trialDays?: number; customerDetails?: { email?: string; name?: string; phone?: string } },
  ): { session: StripeObject; subscription: StripeObject };
  /** A coupon applied to a subscription (a `discount` whose source is the coupon). */
  applyCoupon(subscriptionId: string, coupon: { percentOff?: number; amountOff?: number }): StripeObject;
  /** The customer adds a card in the portal. */
  attachCard(customerId: string, card: { brand: string; last4: string }): StripeObject;
  /** The customer edits their details in the portal. */
  updateCustomer(customerId: string, fields: { email?: string; name?: string; phone?: string }): StripeObject;
  /** A renewal payment fails: the subscription goes past_due; answers the failed invoice. */
  failRenewal(subscriptionId: string): StripeObject;
  cancelSubscription(subscriptionId: string): StripeObject;
  /** From now on answer every request with this status and Stripe's `api_error` (null: answer normally). */
  failWith(status: number | null): void;
  /** An event of `type` about `object` (a snapshot, as Stripe sends it). */
  event(type: string, object: StripeObject, previousAttributes?: Record<string, unknown>): StripeObject;
  /** Signs a raw body as Stripe does; `timestamp` in unix seconds (default now). */
  sign(payload: string, options?: { secret?: string; timestamp?: number }): string;
  /** An event, its raw body and its signature header, ready to POST to the webhook route. */
  webhook(
    type: string,
    object: StripeObject,
    options?: { secret?: string; timestamp?: number; previousAttributes?: Record<string, unknown> },
  ): SignedWebhook;
  close(): Promise<void>;
};
