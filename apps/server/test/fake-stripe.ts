import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A local stand-in for the parts of Stripe's REST API the `stripe` billing provider uses, spoken as
 * Stripe documents it: form-encoded request bodies and query strings in bracket notation
 * (`line_items[0][price]=…`), the secret key as a Bearer token, JSON answers with Stripe's object
 * shapes, lists (`{object: 'list', data, has_more}` with `limit` and `starting_after`), `expand[]`,
 * `Idempotency-Key` replays, and errors as `{error: {type, code, message, param}}` with Stripe's
 * statuses (400 invalid_request_error, 401 for a wrong key, 402 card_error, 404 resource_missing,
 * 500 api_error). Objects live in memory. It also signs webhook deliveries exactly as Stripe does:
 * `Stripe-Signature: t={unix seconds},v1={hex HMAC-SHA256 of "{t}.{raw body}" with the endpoint's
 * signing secret}`.
 *
 * Test-side controls stand for what a person does on Stripe's own pages (paying in Checkout,
 * adding a card in the portal) and for Stripe's side of the story (a failed renewal).
 */

type StripeObject = Record<string, unknown> & { id: string; object: string };
type Params = Record<string, unknown>;

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

class StripeHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: { type: string; message: string; code?: string; param?: string; decline_code?: string },
  ) {
    super(body.message);
  }
}

function missing(kind: string, id: string, param?: string): StripeHttpError {
  return new StripeHttpError(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    message: `No such ${kind}: '${id}'`,
    ...(param ? { param } : {}),
  });
}

function invalid(message: string, param?: string): StripeHttpError {
  return new StripeHttpError(400, {
    type: 'invalid_request_error',
    message,
    ...(param ? { param } : {}),
  });
}

function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
}

/**
 * Stripe's bracket notation (`a[b][0][c]=v`, `expand[]=x`) into nested objects and arrays, as the
 * API reads request bodies and query strings.
 */
export function parseStripeParams(encoded: string): Params {
  const root: Params = {};
  for (const [key, value] of new URLSearchParams(encoded)) {
    const parts = key.split('[').map((part, i) => (i === 0 ? part : part.replace(/]$/, '')));
    let node: Record<string, unknown> = root;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const slot = part === '' ? String(Object.keys(node).length) : part;
      if (last) node[slot] = value;
      else node = (node[slot] ??= {}) as Record<string, unknown>;
    });
  }
  return arrays(root) as Params;
}

/** Objects whose keys are 0..n-1 become arrays. */
function arrays(value: unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, arrays(v)] as const);
  const numeric = entries.length > 0 && entries.every(([k]) => /^\d+$/.test(k));
  if (numeric) {
    return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, v]) => v);
  }
  return Object.fromEntries(entries);
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function int(value: unknown): number | undefined {
  return typeof value === 'string' && value !== '' ? Number.parseInt(value, 10) : undefined;
}

function bool(value: unknown): boolean | undefined {
  return value === 'true' ? true : value === 'false' ? false : undefined;
}

function metadataOf(value: unknown): Record<string, string> {
  if (!value || typeof value !== 'object') return {};
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).filter(([, v]) => typeof v === 'string' && v !== ''),
  ) as Record<string, string>;
}

function clone<T>(value: T): T {
  return structuredClone(value);
}

export async function startFakeStripe(
  options: { secretKey?: string; webhookSecret?: string } = {},
): Promise<FakeStripe> {
  const secretKey = options.secretKey ?? `sk_test_${randomBytes(16).toString('hex')}`;
  const webhookSecret = options.webhookSecret ?? `whsec_${randomBytes(16).toString('hex')}`;
  const objects = new Map<string, StripeObject>();
  /** Prices whose charges are declined. */
  const declining = new Set<string>();
  /** Checkout sessions' line items, which Stripe answers only through their own endpoint. */
  const lineItems = new Map<string, { price: string; quantity: number }[]>();
  const idempotent = new Map<string, { params: string; status: number; body: unknown }>();
  const requests: RecordedRequest[] = [];
  let failing: number | null = null;
  let url = '';

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

  /** Newest first, as Stripe lists. */
  function allOf(object: string): StripeObject[] {
    return [...objects.values()].filter((o) => o.object === object).reverse();
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
      url: `${url}/c/pay/${id}`,
      /** Kept to create the subscription with; Stripe does not answer it. */
      _subscription_metadata: metadataOf(subscriptionData.metadata),
      _trial_period_days: int(subscriptionData.trial_period_days) ?? null,
    });
  }

  function publicSession(session: StripeObject): StripeObject {
    const { _subscription_metadata: _m, _trial_period_days: _t, ...rest } = session;
    return rest as StripeObject;
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
          url: `${url}/p/session/${randomBytes(16).toString('hex')}`,
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

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, {
        'content-type': 'application/json',
        'request-id': newId('req'),
        'stripe-version': req.headers['stripe-version'] ?? '2026-10-28.endive',
      });
      res.end(JSON.stringify(body, null, 2));
    };
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const target = new URL(req.url ?? '/', 'http://stripe.invalid');
    const encoded = req.method === 'GET' ? target.search.slice(1) : Buffer.concat(chunks).toString('utf8');
    const params = parseStripeParams(encoded);
    const idempotencyKey = (req.headers['idempotency-key'] as string | undefined) ?? null;
    requests.push({
      method: req.method ?? 'GET',
      path: target.pathname,
      params,
      idempotencyKey,
      stripeVersion: (req.headers['stripe-version'] as string | undefined) ?? null,
    });

    const auth = req.headers.authorization ?? '';
    const key = auth.startsWith('Bearer ') ? auth.slice('Bearer '.length) : '';
    if (key !== secretKey) {
      const shown = key
        ? `${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`
        : '';
      send(401, {
        error: {
          type: 'invalid_request_error',
          message: key
            ? `Invalid API Key provided: ${shown}`
            : "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
        },
      });
      return;
    }
    if (failing !== null) {
      send(failing, {
        error: { type: 'api_error', message: 'An unknown error occurred while processing your request.' },
      });
      return;
    }
    if (req.method === 'POST' && idempotencyKey) {
      const seen = idempotent.get(idempotencyKey);
      if (seen) {
        if (seen.params !== encoded) {
          send(400, {
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
            },
          });
          return;
        }
        send(seen.status, seen.body);
        return;
      }
    }
    let status = 200;
    let body: unknown;
    try {
      body = route(req.method ?? 'GET', target.pathname, params);
    } catch (error) {
      if (!(error instanceof StripeHttpError)) throw error;
      status = error.status;
      body = { error: error.body };
    }
    if (req.method === 'POST' && idempotencyKey && status < 500)
      idempotent.set(idempotencyKey, { params: encoded, status, body });
    send(status, body);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: String(error) } }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function sign(payload: string, signOptions: { secret?: string; timestamp?: number } = {}): string {
    const timestamp = signOptions.timestamp ?? nowSeconds();
    const signature = createHmac('sha256', signOptions.secret ?? webhookSecret)
      .update(`${timestamp}.${payload}`, 'utf8')
      .digest('hex');
    return `t=${timestamp},v1=${signature}`;
  }

  function event(type: string, object: StripeObject, previousAttributes?: Record<string, unknown>) {
    return store({
      id: newId('evt'),
      object: 'event',
      api_version: '2026-10-28.endive',
      created: nowSeconds(),
      data: {
        object: clone(object.object === 'checkout.session' ? publicSession(object) : object),
        ...(previousAttributes ? { previous_attributes: previousAttributes } : {}),
      },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    });
  }

  return {
    url,
    secretKey,
    webhookSecret,
    requests,
    get<T = StripeObject>(id: string): T {
      const found = objects.get(id);
      if (!found) throw new Error(`fake Stripe has no object ${id}`);
      return clone(found.object === 'checkout.session' ? publicSession(found) : found) as T;
    },
    all<T = StripeObject>(object: string): T[] {
      return allOf(object)
        .reverse()
        .map((o) => clone(o) as T);
    },
    addProduct(input) {
      const product = store({
        id: input.id ?? newId('prod'),
        object: 'product',
        active: input.active ?? true,
        created: nowSeconds(),
        default_price: null as string | null,
        description: null,
        images: [],
        livemode: false,
        marketing_features: (input.marketingFeatures ?? []).map((name) => ({ name })),
        metadata: input.metadata ?? {},
        name: input.name,
        tax_code: null,
        type: 'service',
        unit_label: null,
        updated: nowSeconds(),
        url: null,
      });
      const prices = input.prices.map((price) => addPrice(product.id, price));
      if (input.defaultPrice !== undefined) product.default_price = prices[input.defaultPrice]?.id ?? null;
      return { product: clone(product), prices: prices.map(clone) };
    },
    archivePrice(priceId) {
      find(priceId, 'price', 'price').active = false;
    },
    createCustomer: (input) => clone(createCustomer(input)),
    createSubscription: (input) => clone(createSubscription(input)),
    completeCheckout(sessionId, completeOptions = {}) {
      const session = find(sessionId, 'checkout.session', 'checkout.session');
      if (session.status !== 'open')
        throw new Error(`checkout session ${sessionId} is ${String(session.status)}`);
      let customerId = session.customer as string | null;
      if (!customerId)
        customerId = createCustomer({ email: (session.customer_email as string | null) ?? undefined }).id;
      const customer = objects.get(customerId)!;
      const [line] = lineItems.get(sessionId) ?? [];
      const trialDays = completeOptions.trialDays ?? (session._trial_period_days as number | null);
      const subscription = createSubscription({
        customer: customerId,
        price: line!.price,
        quantity: line!.quantity,
        trialEnd: trialDays ? nowSeconds() + trialDays * 86_400 : null,
        metadata: session._subscription_metadata as Record<string, string>,
      });
      const details = completeOptions.customerDetails ?? {};
      Object.assign(session, {
        customer: customerId,
        customer_details: {
          address: null,
          email: details.email ?? customer.email ?? null,
          name: details.name ?? customer.name ?? null,
          phone: details.phone ?? null,
          tax_exempt: 'none',
          tax_ids: [],
        },
        payment_status: trialDays ? 'no_payment_required' : 'paid',
        status: 'complete',
        subscription: subscription.id,
      });
      return { session: clone(publicSession(session)), subscription: clone(subscription) };
    },
    applyCoupon(subscriptionId, coupon) {
      const subscription = find(subscriptionId, 'subscription', 'subscription');
      const stored = store({
        id: newId('coupon').slice(0, 15),
        object: 'coupon',
        amount_off: coupon.amountOff ?? null,
        currency: coupon.amountOff ? (subscription.currency as string) : null,
        duration: 'forever',
        percent_off: coupon.percentOff ?? null,
        valid: true,
      });
      const discount = store({
        id: newId('di'),
        object: 'discount',
        checkout_session: null,
        customer: subscription.customer,
        end: null,
        invoice: null,
        invoice_item: null,
        promotion_code: null,
        source: { coupon: stored.id, type: 'coupon' },
        start: nowSeconds(),
        subscription: subscriptionId,
        subscription_item: null,
      });
      subscription.discounts = [...(subscription.discounts as string[]), discount.id];
      return clone(subscription);
    },
    attachCard(customerId, card) {
      find(customerId, 'customer', 'customer');
      return clone(
        store({
          id: newId('pm'),
          object: 'payment_method',
          billing_details: { address: null, email: null, name: null, phone: null },
          card: {
            brand: card.brand,
            country: 'US',
            exp_month: 12,
            exp_year: new Date().getUTCFullYear() + 3,
            funding: 'credit',
            last4: card.last4,
          },
          created: nowSeconds(),
          customer: customerId,
          livemode: false,
          metadata: {},
          type: 'card',
        }),
      );
    },
    updateCustomer(customerId, fields) {
      const customer = find(customerId, 'customer', 'customer');
      Object.assign(customer, fields);
      return clone(customer);
    },
    failRenewal(subscriptionId) {
      const subscription = find(subscriptionId, 'subscription', 'subscription');
      subscription.status = 'past_due';
      const [item] = items(subscription);
      const price = item!.price as { unit_amount: number; currency: string };
      const amount = price.unit_amount * (item!.quantity as number);
      const invoice = store({
        id: newId('in'),
        object: 'invoice',
        amount_due: amount,
        amount_paid: 0,
        amount_remaining: amount,
        attempt_count: 1,
        attempted: true,
        billing_reason: 'subscription_cycle',
        created: nowSeconds(),
        currency: price.currency,
        customer: subscription.customer,
        livemode: false,
        parent: {
          quote_details: null,
          subscription_details: { metadata: subscription.metadata, subscription: subscription.id },
          type: 'subscription_details',
        },
        status: 'open',
        total: amount,
      });
      subscription.latest_invoice = invoice.id;
      return clone(invoice);
    },
    cancelSubscription(subscriptionId) {
      const subscription = find(subscriptionId, 'subscription', 'subscription');
      Object.assign(subscription, { status: 'canceled', canceled_at: nowSeconds(), ended_at: nowSeconds() });
      return clone(subscription);
    },
    failWith(status) {
      failing = status;
    },
    event: (type, object, previous) => clone(event(type, object, previous)),
    sign,
    webhook(type, object, webhookOptions = {}) {
      const built = event(type, object, webhookOptions.previousAttributes);
      const payload = JSON.stringify(built, null, 2);
      return {
        event: clone(built),
        payload,
        signature: sign(payload, {
          ...(webhookOptions.secret ? { secret: webhookOptions.secret } : {}),
          ...(webhookOptions.timestamp ? { timestamp: webhookOptions.timestamp } : {}),
        }),
      };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
