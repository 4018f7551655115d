import { randomBytes } from 'node:crypto';
import type { StripeObjects } from './objects';
import {
  StripeHttpError,
  bool,
  clone,
  int,
  invalid,
  metadataOf,
  missing,
  newId,
  str,
  type Params,
  type StripeObject,
} from './wire';

/**
 * The REST API's answers over a fake Stripe's objects: products and prices listed, customers, Billing
 * Portal and Checkout sessions created, subscriptions read and changed, with `expand[]` and paged lists.
 * `baseUrl` is the fake's address, known once it listens. Answers `route`, which throws a
 * {@link StripeHttpError} for Stripe's error answers.
 */
export function stripeApi(db: StripeObjects, baseUrl: () => string) {
  const {
    objects,
    declining,
    lineItems,
    nowSeconds,
    store,
    find,
    createCustomer,
    subscriptionItem,
    periodOf,
    items,
    allOf,
    publicSession,
  } = db;

  /** Replaces ids along `path` (`discounts.source.coupon`, `data.product`) with their objects. */
  function expand(value: unknown, path: string[]): unknown {
    if (path.length === 0) return value;
    if (Array.isArray(value)) return value.map((entry) => expand(entry, path));
    if (!value || typeof value !== 'object') return value;
    const [field, ...rest] = path as [string, ...string[]];
    const record = value as Record<string, unknown>;
    const resolve = (entry: unknown) => {
      const id = typeof entry === 'string' ? entry : null;
      const target = id ? objects.get(id) : entry;
      return expand(id && target ? clone(target) : target, rest);
    };
    const current = record[field];
    return { ...record, [field]: Array.isArray(current) ? current.map(resolve) : resolve(current) };
  }

  function answerObject(object: StripeObject, params: Params): unknown {
    const paths = Array.isArray(params.expand) ? (params.expand as string[]) : [];
    return paths.reduce<unknown>((value, path) => expand(value, path.split('.')), clone(object));
  }

  function list(path: string, all: StripeObject[], params: Params): unknown {
    const limit = Math.min(Math.max(int(params.limit) ?? 10, 1), 100);
    const after = str(params.starting_after);
    const start = after ? all.findIndex((o) => o.id === after) + 1 : 0;
    const page = all.slice(start, start + limit);
    const paths = (Array.isArray(params.expand) ? (params.expand as string[]) : [])
      .filter((p) => p.startsWith('data.'))
      .map((p) => p.slice('data.'.length).split('.'));
    return {
      object: 'list',
      data: page.map((o) => paths.reduce<unknown>((value, p) => expand(value, p), clone(o))),
      has_more: start + limit < all.length,
      url: path,
    };
  }

  function checkoutSession(params: Params): StripeObject {
    const mode = str(params.mode);
    if (!mode) throw invalid('Missing required param: mode.', 'mode');
    if (mode !== 'subscription' && mode !== 'payment' && mode !== 'setup')
      throw invalid(`Invalid mode: must be one of payment, setup, or subscription`, 'mode');
    const successUrl = str(params.success_url);
    if (!successUrl) throw invalid('Missing required param: success_url.', 'success_url');
    const customer = str(params.customer);
    if (customer) find(customer, 'customer', 'customer', 'customer');
    const lines = Array.isArray(params.line_items) ? (params.line_items as Params[]) : [];
    if (lines.length === 0) throw invalid('Missing required param: line_items.', 'line_items');
    const parsed = lines.map((line, i) => {
      const priceId = str(line.price) ?? '';
      const price = objects.get(priceId);
      if (!price || price.object !== 'price') throw missing('price', priceId, `line_items[${i}][price]`);
      if (!price.active)
        throw invalid(
          `The price specified is inactive. This field only accepts active prices.`,
          `line_items[${i}][price]`,
        );
      if (mode === 'subscription' && price.type !== 'recurring')
        throw invalid(
          'You must provide at least one recurring price in `subscription` mode when using prices.',
          `line_items[${i}][price]`,
        );
      const quantity = int(line.quantity) ?? 1;
      if (quantity < 1)
        throw invalid('This value must be greater than or equal to 1.', `line_items[${i}][quantity]`);
      return { price: priceId, quantity };
    });
    const id = `cs_test_${randomBytes(24).toString('base64url').replace(/[-_]/g, 'a')}`;
    lineItems.set(id, parsed);
    const subscriptionData = (params.subscription_data ?? {}) as Params;
    return store({
      id,
      object: 'checkout.session',
      cancel_url: str(params.cancel_url) ?? null,
      client_reference_id: str(params.client_reference_id) ?? null,
      created: nowSeconds(),
      currency: (objects.get(parsed[0]!.price) as StripeObject).currency,
      customer: customer ?? null,
      customer_details: null,
      customer_email: str(params.customer_email) ?? null,
      expires_at: nowSeconds() + 86_400,
      livemode: false,
      metadata: metadataOf(params.metadata),
      mode,
      payment_status: 'unpaid',
      status: 'open',
      subscription: null,
      success_url: successUrl,
      url: `${baseUrl()}/c/pay/${id}`,
      /** Kept to create the subscription with; Stripe does not answer it. */
      _subscription_metadata: metadataOf(subscriptionData.metadata),
      _trial_period_days: int(subscriptionData.trial_period_days) ?? null,
    });
  }

  function updateSubscription(id: string, params: Params): StripeObject {
    const subscription = find(id, 'subscription', 'subscription');
    if (subscription.status === 'canceled' || subscription.status === 'incomplete_expired') {
      const allowed = new Set(['metadata', 'cancellation_details', 'expand']);
      if (Object.keys(params).some((key) => !allowed.has(key)))
        throw invalid('A canceled subscription can only update its cancellation_details and metadata.');
    }
    const updates = Array.isArray(params.items) ? (params.items as Params[]) : [];
    const next = clone(subscription);
    const nextItems = items(next);
    let charged: string[] = [];
    updates.forEach((update, i) => {
      const itemId = str(update.id);
      const item = itemId ? nextItems.find((it) => it.id === itemId) : undefined;
      if (itemId && !item) throw missing('subscription item', itemId, `items[${i}][id]`);
      const priceId = str(update.price);
      const price = priceId ? objects.get(priceId) : undefined;
      if (priceId && (!price || price.object !== 'price'))
        throw missing('price', priceId, `items[${i}][price]`);
      if (price && !price.active)
        throw invalid(
          'The price specified is inactive. This field only accepts active prices.',
          `items[${i}][price]`,
        );
      const quantity = int(update.quantity);
      if (item) {
        if (price) item.price = clone(price);
        if (quantity !== undefined) item.quantity = quantity;
      } else if (price) {
        const [first] = nextItems;
        const period: [number, number] = first
          ? [first.current_period_start as number, first.current_period_end as number]
          : periodOf(price, nowSeconds());
        nextItems.push(subscriptionItem(id, price, quantity ?? 1, period));
      }
      if (price) charged = [...charged, price.id];
    });
    const prorationBehavior = str(params.proration_behavior) ?? 'create_prorations';
    const paymentBehavior = str(params.payment_behavior) ?? 'allow_incomplete';
    const paysNow = prorationBehavior === 'always_invoice' && next.status !== 'trialing';
    if (paysNow && charged.some((p) => declining.has(p))) {
      if (paymentBehavior === 'error_if_incomplete')
        throw new StripeHttpError(402, {
          type: 'card_error',
          code: 'card_declined',
          decline_code: 'generic_decline',
          message: 'Your card was declined.',
        });
      next.status = 'past_due';
    }
    if (params.metadata !== undefined)
      next.metadata = { ...(next.metadata as object), ...metadataOf(params.metadata) };
    const cancelAtPeriodEnd = bool(params.cancel_at_period_end);
    if (cancelAtPeriodEnd !== undefined) {
      next.cancel_at_period_end = cancelAtPeriodEnd;
      next.cancel_at = cancelAtPeriodEnd ? (nextItems[0]?.current_period_end ?? null) : null;
    }
    return store(next);
  }

  type Route = [method: string, pattern: RegExp, answer: (params: Params, id: string) => unknown];
  const routes: Route[] = [
    [
      'GET',
      /^\/v1\/products$/,
      (params) => {
        let all = allOf('product');
        const active = bool(params.active);
        if (active !== undefined) all = all.filter((p) => p.active === active);
        if (Array.isArray(params.ids)) all = all.filter((p) => (params.ids as string[]).includes(p.id));
        return list('/v1/products', all, params);
      },
    ],
    [
      'GET',
      /^\/v1\/products\/([^/]+)$/,
      (params, id) => answerObject(find(id, 'product', 'product'), params),
    ],
    [
      'GET',
      /^\/v1\/prices$/,
      (params) => {
        let all = allOf('price');
        const active = bool(params.active);
        if (active !== undefined) all = all.filter((p) => p.active === active);
        if (str(params.product)) all = all.filter((p) => p.product === params.product);
        if (str(params.type)) all = all.filter((p) => p.type === params.type);
        return list('/v1/prices', all, params);
      },
    ],
    [
      'POST',
      /^\/v1\/customers$/,
      (params) =>
        createCustomer({
          ...(str(params.email) ? { email: str(params.email)! } : {}),
          ...(str(params.name) ? { name: str(params.name)! } : {}),
          metadata: metadataOf(params.metadata),
        }),
    ],
    [
      'GET',
      /^\/v1\/customers\/([^/]+)$/,
      (params, id) => answerObject(find(id, 'customer', 'customer'), params),
    ],
    [
      'POST',
      /^\/v1\/billing_portal\/sessions$/,
      (params) => {
        const customer = str(params.customer);
        if (!customer) throw invalid('Missing required param: customer.', 'customer');
        find(customer, 'customer', 'customer', 'customer');
        return store({
          id: newId('bps'),
          object: 'billing_portal.session',
          configuration: 'bpc_fake',
          created: nowSeconds(),
          customer,
          livemode: false,
          locale: null,
          return_url: str(params.return_url) ?? null,
          url: `${baseUrl()}/p/session/${randomBytes(16).toString('hex')}`,
        });
      },
    ],
    ['POST', /^\/v1\/checkout\/sessions$/, (params) => publicSession(checkoutSession(params))],
    [
      'GET',
      /^\/v1\/checkout\/sessions\/([^/]+)$/,
      (params, id) => answerObject(publicSession(find(id, 'checkout.session', 'checkout.session')), params),
    ],
    [
      'GET',
      /^\/v1\/subscriptions\/([^/]+)$/,
      (params, id) => answerObject(find(id, 'subscription', 'subscription'), params),
    ],
    [
      'POST',
      /^\/v1\/subscriptions\/([^/]+)$/,
      (params, id) => answerObject(updateSubscription(id, params), params),
    ],
  ];

  function route(method: string, path: string, params: Params): unknown {
    for (const [routeMethod, pattern, answer] of routes) {
      const match = routeMethod === method ? pattern.exec(path) : null;
      if (match) return answer(params, decodeURIComponent(match[1] ?? ''));
    }
    throw new StripeHttpError(404, {
      type: 'invalid_request_error',
      message: `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
    });
  }

  return route;
}
