import { createHash } from 'node:crypto';
import Stripe from 'stripe';
import { PLAN_NOT_ON_SALE } from '@vexil/core';
import {
  BillingProviderUnavailable,
  SubscriptionChangeRefused,
  WebhookSignatureInvalid,
  type BillingCustomer,
  type BillingProvider,
  type CatalogueProduct,
  type ProviderEvent,
  type ProviderRedirect,
  type ReturnUrls,
} from '../billing-provider';
import { toProducts } from './stripe-catalogue';
import { connection, idOf, isMissing, isRefusal, unavailable } from './stripe-client';
import { SUBSCRIPTION_EXPAND, changeOf } from './stripe-events';

/*
 * The `stripe` billing provider (docs/adr/0016-billing-providers.md), through the official `stripe`
 * package: plans are the account's active products and their monthly and yearly prices; "Manage
 * Billing Details" opens a Billing Portal session; "Update Subscription" opens Checkout for a first
 * purchase and otherwise moves the subscription's item to the new price, invoicing the proration at
 * once; webhooks are verified with the package's `webhooks.constructEvent` (signature and timestamp
 * tolerance) and turned into a `SubscriptionChange`, the subscription read afresh from Stripe so an
 * event delivered late or out of order still records the current state.
 */

export type StripeProviderOptions = {
  secretKey: string;
  /** The webhook endpoint's signing secret (`whsec_…`). */
  webhookSecret: string;
  /** Where Stripe's API is; `https://api.stripe.com` unless a test server stands in for it. */
  apiUrl?: string;
  /**
   * The Stripe products sold as Vexil plans, in the order the Plans section shows them. Without it
   * every active product with a monthly or yearly price is a plan, the cheapest first.
   */
  productIds?: readonly string[];
  /** How old, in seconds, a webhook's signature may be (the package's default: 300). */
  webhookToleranceSeconds?: number;
  /** How long the plans are reused before Stripe is asked again. */
  productsCacheMs?: number;
  /** Retries of a request that failed on the network or with a 5xx (the package's default: 1). */
  maxNetworkRetries?: number;
  /** How long one request may take. */
  timeoutMs?: number;
  now?: () => Date;
};

const DEFAULT_PRODUCTS_CACHE_MS = 5 * 60 * 1000;
const DEFAULT_TIMEOUT_MS = 20_000;
/** A subscription in these states is over or was never paid: a new purchase goes through Checkout. */
const ENDED: ReadonlySet<string> = new Set(['canceled', 'incomplete', 'incomplete_expired']);

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

export function createStripeProvider(options: StripeProviderOptions): BillingProvider & {
  readonly kind: 'stripe';
  verifyWebhook(rawBody: Buffer, signature: string | undefined): Promise<ProviderEvent>;
} {
  const now = options.now ?? (() => new Date());
  const cacheMs = options.productsCacheMs ?? DEFAULT_PRODUCTS_CACHE_MS;
  const stripe = new Stripe(options.secretKey, {
    ...connection(options.apiUrl),
    maxNetworkRetries: options.maxNetworkRetries ?? 1,
    timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    telemetry: false,
    appInfo: { name: 'Vexil' },
  });
  let cached: { until: number; plans: Promise<CatalogueProduct[]> } | null = null;

  async function loadProducts(): Promise<CatalogueProduct[]> {
    try {
      const [stripeProducts, stripePrices] = await Promise.all([
        stripe.products
          .list({ active: true, limit: 100, ...(options.productIds ? { ids: [...options.productIds] } : {}) })
          .autoPagingToArray({ limit: 10_000 }),
        stripe.prices
          .list({ active: true, type: 'recurring', limit: 100 })
          .autoPagingToArray({ limit: 10_000 }),
      ]);
      return toProducts(stripeProducts, stripePrices, options.productIds);
    } catch (error) {
      throw unavailable('list the plans', error);
    }
  }

  function products(): Promise<CatalogueProduct[]> {
    const at = now().getTime();
    if (cached && cached.until > at) return cached.plans;
    const plans = loadProducts();
    const entry = { until: at + cacheMs, plans };
    cached = entry;
    // A failure is not kept: the next call asks Stripe again.
    plans.catch(() => {
      if (cached === entry) cached = null;
    });
    return plans;
  }

  async function createCustomer(customer: BillingCustomer): Promise<string> {
    try {
      const created = await stripe.customers.create(
        {
          name: customer.organisationName,
          email: customer.email,
          metadata: { organisationId: customer.organisationId },
        },
        // Two clicks of the same admin create one customer (Stripe keeps keys for 24 hours).
        { idempotencyKey: `vexil-customer-${digest(`${customer.organisationId}\n${customer.email}`)}` },
      );
      return created.id;
    } catch (error) {
      throw unavailable('create the customer', error);
    }
  }

  /**
   * Runs `request` for the organisation's customer, creating the customer first when there is none,
   * or when Stripe no longer knows the recorded one (deleted in Stripe's dashboard).
   */
  async function withCustomer<T>(
    customer: BillingCustomer,
    request: (customerId: string) => Promise<T>,
  ): Promise<{ result: T; customerId: string }> {
    const known = customer.externalCustomerId;
    if (known) {
      try {
        return { result: await request(known), customerId: known };
      } catch (error) {
        if (!isMissing(error, 'customer')) throw error;
      }
    }
    const customerId = await createCustomer(customer);
    return { result: await request(customerId), customerId };
  }

  async function retrieveSubscription(id: string): Promise<Stripe.Subscription> {
    return stripe.subscriptions.retrieve(id, { expand: SUBSCRIPTION_EXPAND });
  }

  /** The subscription's current state, or the given snapshot when Stripe no longer has it. */
  async function currentSubscription(
    id: string,
    snapshot: Stripe.Subscription | null,
  ): Promise<Stripe.Subscription | null> {
    try {
      return await retrieveSubscription(id);
    } catch (error) {
      if (isMissing(error)) return snapshot;
      throw unavailable('read the subscription', error);
    }
  }

  return {
    kind: 'stripe',

    products,

    async manageUrl(customer: BillingCustomer, urls: ReturnUrls): Promise<ProviderRedirect> {
      try {
        const { result, customerId } = await withCustomer(customer, (id) =>
          stripe.billingPortal.sessions.create({ customer: id, return_url: urls.returnUrl }),
        );
        return { url: result.url, externalCustomerId: customerId };
      } catch (error) {
        throw unavailable('open the billing portal', error);
      }
    },

    async changeUrl(customer: BillingCustomer, priceId: string, urls: ReturnUrls): Promise<ProviderRedirect> {
      const plans = await products();
      const onSale = plans.some((plan) => Object.values(plan.prices).some((price) => price?.id === priceId));
      if (!onSale) throw new SubscriptionChangeRefused(PLAN_NOT_ON_SALE);
      const quantity = Math.max(1, customer.seats);
      try {
        const current = customer.externalSubscriptionId
          ? await currentSubscription(customer.externalSubscriptionId, null)
          : null;
        if (current && !ENDED.has(current.status)) {
          const [item] = current.items.data;
          if (item && (item.price.id !== priceId || item.quantity !== quantity)) {
            await stripe.subscriptions.update(current.id, {
              items: [{ id: item.id, price: priceId, quantity }],
              // The difference is invoiced and charged now, so a declined card refuses the change.
              proration_behavior: 'always_invoice',
              payment_behavior: 'error_if_incomplete',
              metadata: { organisationId: customer.organisationId },
            });
          }
          return { url: urls.successUrl, externalCustomerId: idOf(current.customer) };
        }
        const { result, customerId } = await withCustomer(customer, (id) =>
          stripe.checkout.sessions.create({
            mode: 'subscription',
            customer: id,
            client_reference_id: customer.organisationId,
            line_items: [{ price: priceId, quantity }],
            metadata: { organisationId: customer.organisationId },
            subscription_data: { metadata: { organisationId: customer.organisationId } },
            success_url: urls.successUrl,
            cancel_url: urls.cancelUrl,
          }),
        );
        if (!result.url)
          throw new BillingProviderUnavailable('Stripe answered a Checkout session without a URL.');
        return { url: result.url, externalCustomerId: customerId };
      } catch (error) {
        if (isRefusal(error)) throw new SubscriptionChangeRefused(error.message);
        throw unavailable('change the subscription', error);
      }
    },

    async verifyWebhook(rawBody: Buffer, signature: string | undefined): Promise<ProviderEvent> {
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(
          rawBody,
          signature ?? '',
          options.webhookSecret,
          options.webhookToleranceSeconds,
          undefined,
          now().getTime(),
        );
      } catch {
        // Stripe's message quotes the header and payload: not repeated.
        throw new WebhookSignatureInvalid();
      }
      if (!event || typeof event.id !== 'string' || typeof event.type !== 'string')
        throw new WebhookSignatureInvalid('The webhook body is not a Stripe event.');
      return { id: event.id, type: event.type, change: await changeOf(event, currentSubscription) };
    },
  };
}
