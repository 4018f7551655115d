import { randomBytes } from 'node:crypto';
import type { FakePriceInput } from './types';
import { clone, missing, newId, type StripeObject } from './wire';

/**
 * The objects a fake Stripe keeps in memory, and how its products' prices, customers and subscriptions are
 * made, for the API's answers and the tests' controls alike.
 */
export function stripeObjects() {
  const objects = new Map<string, StripeObject>();
  /** Prices whose charges are declined. */
  const declining = new Set<string>();
  /** Checkout sessions' line items, which Stripe answers only through their own endpoint. */
  const lineItems = new Map<string, { price: string; quantity: number }[]>();

  const nowSeconds = () => Math.floor(Date.now() / 1000);
  const store = <T extends StripeObject>(object: T): T => {
    objects.set(object.id, object);
    return object;
  };
  const find = (id: string, object: string, kind: string, param?: string): StripeObject => {
    const found = objects.get(id);
    if (!found || found.object !== object) throw missing(kind, id, param);
    return found;
  };

  function addPrice(product: string, input: FakePriceInput): StripeObject {
    const price = store({
      id: input.id ?? newId('price'),
      object: 'price',
      active: input.active ?? true,
      billing_scheme: 'per_unit',
      created: nowSeconds(),
      currency: input.currency ?? 'usd',
      livemode: false,
      lookup_key: null,
      metadata: {},
      nickname: null,
      product,
      recurring: {
        interval: input.interval,
        interval_count: input.intervalCount ?? 1,
        meter: null,
        usage_type: 'licensed',
      },
      tax_behavior: 'unspecified',
      type: 'recurring',
      unit_amount: input.amount,
      unit_amount_decimal: input.amount === null ? null : String(input.amount),
    });
    if (input.declines) declining.add(price.id);
    return price;
  }

  function createCustomer(input: { email?: string; name?: string; metadata?: Record<string, string> } = {}) {
    return store({
      id: newId('cus'),
      object: 'customer',
      address: null,
      balance: 0,
      created: nowSeconds(),
      currency: null,
      default_source: null,
      delinquent: false,
      description: null,
      email: input.email ?? null,
      invoice_prefix: randomBytes(4).toString('hex').toUpperCase(),
      invoice_settings: { custom_fields: null, default_payment_method: null, footer: null },
      livemode: false,
      metadata: input.metadata ?? {},
      name: input.name ?? null,
      phone: null,
      preferred_locales: [],
      shipping: null,
      tax_exempt: 'none',
    });
  }

  function subscriptionItem(
    subscription: string,
    price: StripeObject,
    quantity: number,
    period: [number, number],
  ) {
    return {
      id: newId('si'),
      object: 'subscription_item',
      created: nowSeconds(),
      current_period_start: period[0],
      current_period_end: period[1],
      discounts: [],
      metadata: {},
      price: clone(price),
      quantity,
      subscription,
      tax_rates: [],
    };
  }

  function periodOf(price: StripeObject, start: number): [number, number] {
    const recurring = price.recurring as { interval: string; interval_count: number };
    const days = { day: 1, week: 7, month: 30, year: 365 }[recurring.interval] ?? 30;
    return [start, start + days * recurring.interval_count * 86_400];
  }

  function createSubscription(input: {
    customer: string;
    price: string;
    quantity?: number;
    status?: string;
    trialEnd?: number | null;
    metadata?: Record<string, string>;
  }): StripeObject {
    find(input.customer, 'customer', 'customer');
    const price = find(input.price, 'price', 'price');
    const id = newId('sub');
    const start = nowSeconds();
    const period = periodOf(price, start);
    const trialEnd = input.trialEnd ?? null;
    return store({
      id,
      object: 'subscription',
      billing_cycle_anchor: trialEnd ?? start,
      cancel_at: null,
      cancel_at_period_end: false,
      canceled_at: null,
      collection_method: 'charge_automatically',
      created: start,
      currency: price.currency,
      customer: input.customer,
      default_payment_method: null,
      description: null,
      discounts: [],
      ended_at: null,
      items: {
        object: 'list',
        data: [subscriptionItem(id, price, input.quantity ?? 1, trialEnd ? [start, trialEnd] : period)],
        has_more: false,
        total_count: 1,
        url: `/v1/subscription_items?subscription=${id}`,
      },
      latest_invoice: null,
      livemode: false,
      metadata: input.metadata ?? {},
      pause_collection: null,
      start_date: start,
      status: input.status ?? (trialEnd ? 'trialing' : 'active'),
      trial_end: trialEnd,
      trial_start: trialEnd ? start : null,
    });
  }

  function items(subscription: StripeObject) {
    return (subscription.items as { data: Record<string, unknown>[] }).data;
  }

  /** Newest first, as Stripe lists. */
  function allOf(object: string): StripeObject[] {
    return [...objects.values()].filter((o) => o.object === object).reverse();
  }

  function publicSession(session: StripeObject): StripeObject {
    const { _subscription_metadata: _m, _trial_period_days: _t, ...rest } = session;
    return rest as StripeObject;
  }

  return {
    objects,
    declining,
    lineItems,
    nowSeconds,
    store,
    find,
    addPrice,
    createCustomer,
    subscriptionItem,
    periodOf,
    createSubscription,
    items,
    allOf,
    publicSession,
  };
}

export type StripeObjects = ReturnType<typeof stripeObjects>;
