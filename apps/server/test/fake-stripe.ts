import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { stripeApi } from './fake-stripe/api';
import { stripeObjects } from './fake-stripe/objects';
import type { FakeStripe, RecordedRequest } from './fake-stripe/types';
import { StripeHttpError, clone, newId, parseStripeParams, type StripeObject } from './fake-stripe/wire';

export type {
  FakePriceInput,
  FakeProductInput,
  FakeStripe,
  RecordedRequest,
  SignedWebhook,
} from './fake-stripe/types';
export { parseStripeParams } from './fake-stripe/wire';

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
 *
 * The pieces are in fake-stripe/: the wire format (wire.ts), the objects kept (objects.ts), the REST
 * API's answers (api.ts) and the types (types.ts); this file serves them and holds the controls.
 */

export async function startFakeStripe(
  options: { secretKey?: string; webhookSecret?: string } = {},
): Promise<FakeStripe> {
  const secretKey = options.secretKey ?? `sk_test_${randomBytes(16).toString('hex')}`;
  const webhookSecret = options.webhookSecret ?? `whsec_${randomBytes(16).toString('hex')}`;
  const idempotent = new Map<string, { params: string; status: number; body: unknown }>();
  const requests: RecordedRequest[] = [];
  let failing: number | null = null;
  let url = '';
  const db = stripeObjects();
  const { objects, lineItems, nowSeconds, store, find, addPrice, createCustomer, createSubscription } = db;
  const { items, allOf, publicSession } = db;
  const route = stripeApi(db, () => url);

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
