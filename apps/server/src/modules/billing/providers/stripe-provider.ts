import { createHash } from 'node:crypto';
import Stripe from 'stripe';
import {
  BOOLEAN_LIMIT_KEYS,
  NUMERIC_LIMIT_KEYS,
  PRICE_INTERVALS,
  type Limits,
  type Product,
  type ProductPrice,
} from '@vexil/core';
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
  type SubscriptionChange,
} from '../billing-provider';
import type { ProviderSubscriptionStatus } from '../../subscriptions/subscriptions.types';

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
/** The subscription fields the webhook mapping needs expanded: each discount's coupon. */
const SUBSCRIPTION_EXPAND = ['discounts.source.coupon'];
/** A subscription in these states is over or was never paid: a new purchase goes through Checkout. */
const ENDED: ReadonlySet<string> = new Set(['canceled', 'incomplete', 'incomplete_expired']);
const STATUSES: ReadonlySet<string> = new Set<ProviderSubscriptionStatus>([
  'trialing',
  'active',
  'past_due',
  'unpaid',
  'canceled',
  'incomplete',
  'incomplete_expired',
  'paused',
]);

type Interval = (typeof PRICE_INTERVALS)[number];

/** The Stripe client's connection options for an API URL such as `http://127.0.0.1:12111`. */
function connection(apiUrl: string | undefined): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port || (protocol === 'http' ? 80 : 443), protocol };
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

function dateOf(seconds: number | null | undefined): Date | null {
  return typeof seconds === 'number' ? new Date(seconds * 1000) : null;
}

/** What went wrong, for the logs: Stripe's status, type and code, never a key or a customer's data. */
function describe(error: unknown): string {
  if (error instanceof Stripe.errors.StripeError) {
    const parts = [error.statusCode ? String(error.statusCode) : null, error.type, error.code ?? null];
    return parts.filter(Boolean).join(' ');
  }
  return error instanceof Error ? error.name : 'unknown error';
}

function unavailable(action: string, error: unknown): BillingProviderUnavailable {
  if (error instanceof BillingProviderUnavailable) return error;
  return new BillingProviderUnavailable(`Stripe could not ${action} (${describe(error)}).`, { cause: error });
}

/** Stripe refused the request itself (a declined card, an unknown price): the user is told why. */
function isRefusal(error: unknown): error is Stripe.errors.StripeError {
  return (
    error instanceof Stripe.errors.StripeCardError || error instanceof Stripe.errors.StripeInvalidRequestError
  );
}

function isMissing(error: unknown, param?: string): boolean {
  return (
    error instanceof Stripe.errors.StripeInvalidRequestError &&
    error.code === 'resource_missing' &&
    (param === undefined || error.param === param)
  );
}

/** A product's plan bullet points: its marketing features, else `metadata.features` one per line. */
function featuresOf(product: Stripe.Product): string[] {
  const marketing = (product.marketing_features ?? [])
    .map((feature) => feature.name?.trim() ?? '')
    .filter((name) => name !== '');
  if (marketing.length > 0) return marketing;
  return (product.metadata?.features ?? '')
    .split(/\r?\n|;/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/**
 * A product's plan limits from its metadata, keyed as core's limits: `maxProjects: "10"`,
 * `maxImpressions: "unlimited"`, `auditLog: "true"`. A key left out is unlimited or included, as
 * the service stores limits; a value that is neither a whole number nor `unlimited` (numbers), nor
 * `true` or `false` (capabilities), gives nothing rather than everything: 0, or not included.
 */
export function limitsOf(metadata: Stripe.Metadata | null | undefined): Partial<Limits> {
  const limits: Partial<Record<keyof Limits, number | boolean | null>> = {};
  for (const key of NUMERIC_LIMIT_KEYS) {
    const raw = metadata?.[key]?.trim().toLowerCase();
    if (raw === undefined) continue;
    const digits = raw.replace(/[,_\s]/g, '');
    limits[key] = raw === 'unlimited' ? null : /^\d+$/.test(digits) ? Number(digits) : 0;
  }
  for (const key of BOOLEAN_LIMIT_KEYS) {
    const raw = metadata?.[key]?.trim().toLowerCase();
    if (raw === undefined) continue;
    limits[key] = raw === 'true' || raw === 'yes' || raw === 'on';
  }
  return limits as Partial<Limits>;
}

function planPrice(price: Stripe.Price): ProductPrice | null {
  const interval = price.recurring?.interval;
  if (!PRICE_INTERVALS.includes(interval as Interval)) return null;
  if (price.recurring?.interval_count !== 1 || price.recurring.usage_type !== 'licensed') return null;
  if (typeof price.unit_amount !== 'number') return null;
  return {
    id: price.id,
    amount: price.unit_amount,
    currency: price.currency,
    interval: interval as Interval,
  };
}

/** Per-interval price for ordering plans: the monthly amount, else a twelfth of the yearly one. */
function monthlyAmount(product: Product): number {
  if (product.prices.month) return product.prices.month.amount;
  if (product.prices.year) return product.prices.year.amount / 12;
  return Number.POSITIVE_INFINITY;
}

/** Stripe's products and prices as the Plans section's products, prices keyed by interval. */
export function toProducts(
  stripeProducts: readonly Stripe.Product[],
  stripePrices: readonly Stripe.Price[],
  productIds?: readonly string[],
): CatalogueProduct[] {
  const plans: CatalogueProduct[] = [];
  for (const product of stripeProducts) {
    if (!product.active) continue;
    const defaultPrice = idOf(product.default_price);
    const prices: Product['prices'] = {};
    // The default price wins its interval; otherwise the newest (Stripe lists newest first).
    const own = stripePrices
      .filter((price) => price.active && idOf(price.product) === product.id)
      .sort((a, b) => Number(b.id === defaultPrice) - Number(a.id === defaultPrice));
    for (const price of own) {
      const mapped = planPrice(price);
      if (mapped && !prices[mapped.interval]) prices[mapped.interval] = mapped;
    }
    if (!prices.month && !prices.year) continue;
    plans.push({
      id: product.id,
      name: product.name,
      features: featuresOf(product),
      prices,
      limits: limitsOf(product.metadata),
    });
  }
  if (productIds) {
    const order = new Map(productIds.map((id, index) => [id, index]));
    return plans.filter((plan) => order.has(plan.id)).sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  }
  return plans.sort((a, b) => monthlyAmount(a) - monthlyAmount(b) || a.name.localeCompare(b.name));
}

/** A subscription as the change the billing service records. */
export function subscriptionChangeOf(subscription: Stripe.Subscription): SubscriptionChange {
  const items = subscription.items?.data ?? [];
  const [item] = items;
  const change: SubscriptionChange = {
    externalCustomerId: idOf(subscription.customer) ?? '',
    externalSubscriptionId: subscription.id,
    externalPriceId: item?.price?.id ?? null,
    trialEnd: dateOf(subscription.trial_end),
    currentPeriodStart: dateOf(item?.current_period_start),
    currentPeriodEnd: dateOf(item?.current_period_end),
    cancelAt: dateOf(
      subscription.cancel_at ?? (subscription.cancel_at_period_end ? item?.current_period_end : null),
    ),
  };
  const organisationId = subscription.metadata?.organisationId;
  if (organisationId) change.organisationId = organisationId;
  if (STATUSES.has(subscription.status)) change.status = subscription.status as ProviderSubscriptionStatus;
  if (item && typeof item.quantity === 'number') change.quantity = item.quantity;

  // The discount only when each coupon came expanded; otherwise it stays as recorded.
  const discounts = subscription.discounts ?? [];
  const coupons = discounts.map((discount) =>
    typeof discount !== 'string' && discount.source?.coupon && typeof discount.source.coupon !== 'string'
      ? discount.source.coupon
      : null,
  );
  if (coupons.every((coupon) => coupon !== null)) {
    const percentOff = coupons.find((coupon) => coupon.percent_off !== null)?.percent_off ?? null;
    const amountOff = coupons.reduce((sum, coupon) => sum + (coupon.amount_off ?? 0), 0) || null;
    const subtotal = items.reduce((sum, it) => sum + (it.price?.unit_amount ?? 0) * (it.quantity ?? 1), 0);
    const afterPercent = percentOff === null ? subtotal : Math.round((subtotal * (100 - percentOff)) / 100);
    change.percentOff = percentOff;
    change.amountOff = amountOff;
    change.total = Math.max(0, afterPercent - (amountOff ?? 0));
  }
  return change;
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

  async function changeOf(event: Stripe.Event): Promise<SubscriptionChange | null> {
    switch (event.type) {
      case 'checkout.session.completed': {
        const session = event.data.object;
        const subscriptionId = idOf(session.subscription);
        const customerId = idOf(session.customer);
        if (session.mode !== 'subscription' || !subscriptionId || !customerId) return null;
        const subscription = await currentSubscription(subscriptionId, null);
        const change: SubscriptionChange = subscription
          ? subscriptionChangeOf(subscription)
          : { externalCustomerId: customerId, externalSubscriptionId: subscriptionId };
        change.organisationId =
          change.organisationId ?? session.metadata?.organisationId ?? session.client_reference_id ?? null;
        if (session.customer_details) {
          const { email, name, phone } = session.customer_details;
          change.billingContact = { email: email ?? null, name: name ?? null, phone: phone ?? null };
        }
        return change;
      }
      case 'customer.subscription.created':
      case 'customer.subscription.updated': {
        const snapshot = event.data.object;
        const subscription = await currentSubscription(snapshot.id, snapshot);
        return subscription ? subscriptionChangeOf(subscription) : null;
      }
      case 'customer.subscription.deleted':
        // Final: the snapshot is the subscription's last state.
        return subscriptionChangeOf(event.data.object);
      case 'invoice.payment_failed': {
        const invoice = event.data.object;
        const subscriptionId = idOf(invoice.parent?.subscription_details?.subscription);
        const customerId = idOf(invoice.customer);
        if (!subscriptionId || !customerId) return null;
        const subscription = await currentSubscription(subscriptionId, null);
        // Stripe marks the subscription past_due as it reports the failed renewal.
        return subscription
          ? subscriptionChangeOf(subscription)
          : { externalCustomerId: customerId, externalSubscriptionId: subscriptionId, status: 'past_due' };
      }
      case 'customer.updated': {
        const customer = event.data.object;
        const change: SubscriptionChange = {
          externalCustomerId: customer.id,
          billingContact: {
            email: customer.email ?? null,
            name: customer.name ?? null,
            phone: customer.phone ?? null,
          },
        };
        if (customer.metadata?.organisationId) change.organisationId = customer.metadata.organisationId;
        return change;
      }
      case 'payment_method.attached': {
        const method = event.data.object;
        const customerId = idOf(method.customer);
        if (!customerId || !method.card) return null;
        return {
          externalCustomerId: customerId,
          card: { brand: method.card.brand ?? null, lastFour: method.card.last4 ?? null },
        };
      }
      default:
        return null;
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
      if (!onSale) throw new SubscriptionChangeRefused('This plan is not on sale.');
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
      return { id: event.id, type: event.type, change: await changeOf(event) };
    },
  };
}
