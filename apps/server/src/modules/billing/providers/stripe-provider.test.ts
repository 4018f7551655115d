import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import {
  BillingProviderUnavailable,
  SubscriptionChangeRefused,
  WebhookSignatureInvalid,
  type BillingCustomer,
} from '../billing-provider';
import { startFakeStripe, type FakeStripe } from '../../../../test/fake-stripe';
import { createStripeProvider, type StripeProviderOptions } from './stripe-provider';

const URLS = {
  returnUrl: 'http://acme.vexil.test/admin/billing',
  successUrl: 'http://acme.vexil.test/admin/billing?purchase=success',
  cancelUrl: 'http://acme.vexil.test/admin/billing?purchase=cancelled',
};

let stripe: FakeStripe;
let starter: { product: { id: string }; prices: { id: string }[] };
let pro: { product: { id: string }; prices: { id: string }[] };
let declining: { product: { id: string }; prices: { id: string }[] };

function provider(overrides: Partial<StripeProviderOptions> = {}) {
  return createStripeProvider({
    secretKey: stripe.secretKey,
    webhookSecret: stripe.webhookSecret,
    apiUrl: stripe.url,
    maxNetworkRetries: 0,
    ...overrides,
  });
}

function customer(overrides: Partial<BillingCustomer> = {}): BillingCustomer {
  return {
    organisationId: randomUUID(),
    organisationName: 'Acme Ltd',
    email: 'ada@acme.test',
    externalCustomerId: null,
    externalSubscriptionId: null,
    seats: 3,
    ...overrides,
  };
}

/** What the fake received since `from` for `method path`. */
function received(method: string, path: string, from = 0) {
  return stripe.requests.slice(from).filter((r) => r.method === method && r.path === path);
}

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

beforeAll(async () => {
  stripe = await startFakeStripe();
  starter = stripe.addProduct({
    name: 'Start-Up',
    marketingFeatures: ['3 projects', 'Audit log'],
    prices: [
      { interval: 'month', amount: 4500 },
      { interval: 'year', amount: 45_000 },
    ],
  });
  pro = stripe.addProduct({
    name: 'Scale-Up',
    metadata: {
      features: 'Unlimited projects\nVariant testing',
      maxProjects: 'unlimited',
      maxEnvironments: '50',
      maxImpressions: '10,000,000',
      auditLog: 'true',
      variantTesting: 'true',
    },
    prices: [
      { interval: 'month', amount: 2900 }, // superseded below by the default price
      { interval: 'month', amount: 9900 },
      { interval: 'year', amount: 99_000 },
    ],
    defaultPrice: 1,
  });
  declining = stripe.addProduct({
    name: 'Declined',
    prices: [{ interval: 'month', amount: 12_000, declines: true }],
  });
  // Not plans: archived, one-off, metered, weekly, or without any price.
  stripe.addProduct({ name: 'Archived', active: false, prices: [{ interval: 'month', amount: 100 }] });
  stripe.addProduct({ name: 'Weekly', prices: [{ interval: 'week', amount: 100 }] });
  stripe.addProduct({ name: 'Quarterly', prices: [{ interval: 'month', intervalCount: 3, amount: 100 }] });
  stripe.addProduct({ name: 'Custom', prices: [{ interval: 'month', amount: null }] });
  stripe.addProduct({ name: 'Nothing', prices: [] });
  const retired = stripe.addProduct({ name: 'Retired price', prices: [{ interval: 'month', amount: 100 }] });
  stripe.archivePrice(retired.prices[0]!.id);
});
afterAll(async () => {
  await stripe?.close();
});
afterEach(() => {
  stripe.failWith(null);
});

describe('plans', () => {
  it('lists the active products with their monthly and yearly prices, cheapest first', async () => {
    const plans = await provider().products();
    expect(plans.map((p) => p.name)).toEqual(['Start-Up', 'Scale-Up', 'Declined']);
    expect(plans[0]).toEqual({
      id: starter.product.id,
      name: 'Start-Up',
      features: ['3 projects', 'Audit log'],
      prices: {
        month: { id: starter.prices[0]!.id, amount: 4500, currency: 'usd', interval: 'month' },
        year: { id: starter.prices[1]!.id, amount: 45_000, currency: 'usd', interval: 'year' },
      },
      // No limits in its metadata: unlimited, everything included.
      limits: {},
    });
    // The default price wins its interval; features from metadata when there are no marketing features.
    expect(plans[1]).toMatchObject({
      features: ['Unlimited projects', 'Variant testing'],
      prices: { month: { id: pro.prices[1]!.id, amount: 9900 }, year: { amount: 99_000 } },
      limits: {
        maxProjects: null,
        maxEnvironments: 50,
        maxImpressions: 10_000_000,
        auditLog: true,
        variantTesting: true,
      },
    });
  });

  it('reads a mistyped limit as nothing allowed rather than unlimited', async () => {
    const typo = stripe.addProduct({
      name: 'Typo',
      metadata: { maxProjects: 'ten', maxFeatures: '-1', auditLog: 'yes please', maxEnvironments: ' 3 ' },
      prices: [{ interval: 'year', amount: 1 }],
    });
    const plans = await provider({ productIds: [typo.product.id] }).products();
    expect(plans[0]!.limits).toEqual({ maxProjects: 0, maxFeatures: 0, maxEnvironments: 3, auditLog: false });
  });

  it('sells only the configured products, in the configured order', async () => {
    const plans = await provider({ productIds: [pro.product.id, starter.product.id] }).products();
    expect(plans.map((p) => p.id)).toEqual([pro.product.id, starter.product.id]);
  });

  it('asks Stripe again only after five minutes', async () => {
    let at = Date.parse('2030-01-01T00:00:00Z');
    const p = provider({ now: () => new Date(at) });
    const from = stripe.requests.length;
    await p.products();
    at += 4 * 60 * 1000;
    await p.products();
    expect(received('GET', '/v1/products', from)).toHaveLength(1);
    at += 2 * 60 * 1000;
    await p.products();
    expect(received('GET', '/v1/products', from)).toHaveLength(2);
  });

  it('is unavailable while Stripe fails, and recovers after', async () => {
    const p = provider();
    stripe.failWith(500);
    await expect(p.products()).rejects.toBeInstanceOf(BillingProviderUnavailable);
    stripe.failWith(null);
    const plans = await p.products();
    expect(plans.map((plan) => plan.id)).toContain(starter.product.id);
  });
});

describe('Manage Billing Details', () => {
  it('creates the customer once, then opens a Billing Portal session for it', async () => {
    const p = provider();
    const org = customer();
    const from = stripe.requests.length;
    const first = await p.manageUrl(org, URLS);

    expect(first.externalCustomerId).toMatch(/^cus_/);
    expect(first.url).toMatch(new RegExp(`^${stripe.url}/p/session/`));
    const created = stripe.get<{ email: string; name: string; metadata: Record<string, string> }>(
      first.externalCustomerId!,
    );
    expect(created).toMatchObject({
      email: 'ada@acme.test',
      name: 'Acme Ltd',
      metadata: { organisationId: org.organisationId },
    });
    const [portal] = received('POST', '/v1/billing_portal/sessions', from);
    expect(portal!.params).toEqual({ customer: first.externalCustomerId, return_url: URLS.returnUrl });

    // With the id stored, the next visit reuses the customer.
    const second = await p.manageUrl({ ...org, externalCustomerId: first.externalCustomerId }, URLS);
    expect(second.externalCustomerId).toBe(first.externalCustomerId);
    expect(received('POST', '/v1/customers', from)).toHaveLength(1);
    expect(received('POST', '/v1/billing_portal/sessions', from)).toHaveLength(2);
  });

  it('sends the secret key as a Bearer token and pins the API version', async () => {
    const from = stripe.requests.length;
    await provider().manageUrl(customer(), URLS);
    const [request] = received('POST', '/v1/customers', from);
    expect(request!.stripeVersion).toMatch(/^\d{4}-\d{2}-\d{2}/);
    expect(request!.idempotencyKey).toBeTruthy();
  });

  it('creates one customer when the same admin asks twice before the id is stored', async () => {
    const p = provider();
    const org = customer();
    const first = await p.manageUrl(org, URLS);
    const second = await p.manageUrl(org, URLS);
    expect(second.externalCustomerId).toBe(first.externalCustomerId);
    const mine = stripe
      .all<{ metadata: { organisationId?: string } }>('customer')
      .filter((c) => c.metadata.organisationId === org.organisationId);
    expect(mine).toHaveLength(1);
  });

  it('creates a new customer when Stripe no longer knows the recorded one', async () => {
    const result = await provider().manageUrl(customer({ externalCustomerId: 'cus_deleted' }), URLS);
    expect(result.externalCustomerId).toMatch(/^cus_/);
    expect(result.externalCustomerId).not.toBe('cus_deleted');
  });

  it('is unavailable when Stripe fails, cannot be reached, or refuses the key', async () => {
    stripe.failWith(503);
    await expect(provider().manageUrl(customer(), URLS)).rejects.toBeInstanceOf(BillingProviderUnavailable);
    stripe.failWith(null);

    const wrongKey = await refusal(provider({ secretKey: 'sk_test_wrong' }).manageUrl(customer(), URLS));
    expect(wrongKey).toBeInstanceOf(BillingProviderUnavailable);
    // The error says what failed without the key.
    expect((wrongKey as Error).message).toContain('401');
    expect((wrongKey as Error).message).not.toContain('sk_test_wrong');

    const down = await startFakeStripe();
    const downUrl = down.url;
    await down.close();
    await expect(provider({ apiUrl: downUrl }).manageUrl(customer(), URLS)).rejects.toBeInstanceOf(
      BillingProviderUnavailable,
    );
  });
});

describe('Update Subscription', () => {
  it('opens Checkout for a first purchase: the price, one line per seat, the organisation and the return pages', async () => {
    const p = provider();
    const org = customer({ seats: 4 });
    const from = stripe.requests.length;
    const result = await p.changeUrl(org, starter.prices[0]!.id, URLS);

    const [request] = received('POST', '/v1/checkout/sessions', from);
    expect(request!.params).toEqual({
      mode: 'subscription',
      customer: result.externalCustomerId,
      client_reference_id: org.organisationId,
      line_items: [{ price: starter.prices[0]!.id, quantity: '4' }],
      metadata: { organisationId: org.organisationId },
      subscription_data: { metadata: { organisationId: org.organisationId } },
      success_url: URLS.successUrl,
      cancel_url: URLS.cancelUrl,
    });
    const [session] = stripe.all<{ id: string; url: string }>('checkout.session').slice(-1);
    expect(result.url).toBe(session!.url);
    expect(result.url).toMatch(/\/c\/pay\/cs_test_/);
    expect(stripe.get<{ metadata: object }>(result.externalCustomerId!).metadata).toEqual({
      organisationId: org.organisationId,
    });
    expect(received('POST', '/v1/customers', from)).toHaveLength(1);
  });

  it('bills at least one seat', async () => {
    const from = stripe.requests.length;
    await provider().changeUrl(customer({ seats: 0 }), starter.prices[0]!.id, URLS);
    const [request] = received('POST', '/v1/checkout/sessions', from);
    expect(request!.params.line_items).toEqual([{ price: starter.prices[0]!.id, quantity: '1' }]);
  });

  it('moves an existing subscription to the new price with the proration invoiced now', async () => {
    const cus = stripe.createCustomer({ email: 'ada@acme.test' });
    const sub = stripe.createSubscription({ customer: cus.id, price: starter.prices[0]!.id, quantity: 2 });
    const org = customer({ externalCustomerId: cus.id, externalSubscriptionId: sub.id, seats: 5 });
    const from = stripe.requests.length;

    const result = await provider().changeUrl(org, pro.prices[1]!.id, URLS);

    expect(result).toEqual({ url: URLS.successUrl, externalCustomerId: cus.id });
    const [update] = received('POST', `/v1/subscriptions/${sub.id}`, from);
    const itemId = (sub.items as { data: { id: string }[] }).data[0]!.id;
    expect(update!.params).toMatchObject({
      items: [{ id: itemId, price: pro.prices[1]!.id, quantity: '5' }],
      proration_behavior: 'always_invoice',
      payment_behavior: 'error_if_incomplete',
    });
    const after = stripe.get<{ items: { data: { price: { id: string }; quantity: number }[] } }>(sub.id);
    expect(after.items.data[0]).toMatchObject({ price: { id: pro.prices[1]!.id }, quantity: 5 });
    expect(received('POST', '/v1/checkout/sessions', from)).toHaveLength(0);
  });

  it('opens Checkout again once the subscription has been cancelled', async () => {
    const cus = stripe.createCustomer();
    const sub = stripe.createSubscription({ customer: cus.id, price: starter.prices[0]!.id });
    stripe.cancelSubscription(sub.id);
    const from = stripe.requests.length;
    const result = await provider().changeUrl(
      customer({ externalCustomerId: cus.id, externalSubscriptionId: sub.id }),
      pro.prices[1]!.id,
      URLS,
    );
    expect(result.url).toMatch(/\/c\/pay\/cs_test_/);
    expect(received('POST', '/v1/customers', from)).toHaveLength(0);
  });

  it("refuses with Stripe's reason when the card is declined, leaving the subscription as it was", async () => {
    const cus = stripe.createCustomer();
    const sub = stripe.createSubscription({ customer: cus.id, price: starter.prices[0]!.id });
    const error = await refusal(
      provider().changeUrl(
        customer({ externalCustomerId: cus.id, externalSubscriptionId: sub.id }),
        declining.prices[0]!.id,
        URLS,
      ),
    );
    expect(error).toBeInstanceOf(SubscriptionChangeRefused);
    expect((error as SubscriptionChangeRefused).detail).toBe('Your card was declined.');
    const after = stripe.get<{ status: string; items: { data: { price: { id: string } }[] } }>(sub.id);
    expect(after.status).toBe('active');
    expect(after.items.data[0]!.price.id).toBe(starter.prices[0]!.id);
  });

  it("refuses with Stripe's reason when Stripe rejects the price", async () => {
    const doomed = stripe.addProduct({ name: 'Doomed', prices: [{ interval: 'month', amount: 1 }] });
    const p = provider();
    await p.products(); // cached while the price is still on sale
    stripe.archivePrice(doomed.prices[0]!.id);
    const error = await refusal(p.changeUrl(customer(), doomed.prices[0]!.id, URLS));
    expect(error).toBeInstanceOf(SubscriptionChangeRefused);
    expect((error as SubscriptionChangeRefused).detail).toBe(
      'The price specified is inactive. This field only accepts active prices.',
    );
  });

  it('refuses a price that is not one of the plans without asking Stripe to sell it', async () => {
    const from = stripe.requests.length;
    for (const price of [
      'price_unknown',
      stripe.all<{ id: string; active: boolean }>('price').find((x) => !x.active)!.id,
    ]) {
      const error = await refusal(provider().changeUrl(customer(), price, URLS));
      expect(error).toBeInstanceOf(SubscriptionChangeRefused);
      expect((error as SubscriptionChangeRefused).detail).toBe('This plan is not on sale.');
    }
    expect(received('POST', '/v1/checkout/sessions', from)).toHaveLength(0);
    expect(received('POST', '/v1/customers', from)).toHaveLength(0);
  });

  it('is unavailable when Stripe fails', async () => {
    const p = provider();
    await p.products();
    stripe.failWith(500);
    await expect(p.changeUrl(customer(), starter.prices[0]!.id, URLS)).rejects.toBeInstanceOf(
      BillingProviderUnavailable,
    );
  });
});

describe('webhook verification', () => {
  const NOW = Date.parse('2030-06-01T12:00:00Z');
  const at = () => new Date(NOW);
  const seconds = Math.floor(NOW / 1000);

  function unknownEvent() {
    return stripe.webhook('balance.available', { id: 'bal', object: 'balance' }, { timestamp: seconds });
  }

  it('accepts a delivery signed with the endpoint secret', async () => {
    const { event, payload, signature } = unknownEvent();
    await expect(provider({ now: at }).verifyWebhook(Buffer.from(payload), signature)).resolves.toEqual({
      id: event.id,
      type: 'balance.available',
      change: null,
    });
  });

  it('refuses a delivery signed with another secret', async () => {
    const { payload } = unknownEvent();
    const signature = stripe.sign(payload, { secret: 'whsec_someone_else', timestamp: seconds });
    await expect(provider({ now: at }).verifyWebhook(Buffer.from(payload), signature)).rejects.toBeInstanceOf(
      WebhookSignatureInvalid,
    );
  });

  it('refuses a body changed after signing', async () => {
    const { payload, signature } = unknownEvent();
    const tampered = payload.replace('"livemode": false', '"livemode": true');
    expect(tampered).not.toBe(payload);
    await expect(
      provider({ now: at }).verifyWebhook(Buffer.from(tampered), signature),
    ).rejects.toBeInstanceOf(WebhookSignatureInvalid);
  });

  it('refuses a signature older than five minutes (a replay), and accepts one just inside', async () => {
    const { payload } = unknownEvent();
    const old = stripe.sign(payload, { timestamp: seconds - 301 });
    const recent = stripe.sign(payload, { timestamp: seconds - 299 });
    const p = provider({ now: at });
    await expect(p.verifyWebhook(Buffer.from(payload), old)).rejects.toBeInstanceOf(WebhookSignatureInvalid);
    await expect(p.verifyWebhook(Buffer.from(payload), recent)).resolves.toMatchObject({
      type: 'balance.available',
    });
  });

  it('refuses a delivery without a signature or with a malformed one', async () => {
    const { payload } = unknownEvent();
    const p = provider({ now: at });
    for (const header of [undefined, '', 'v1=abc', `t=${seconds}`, 'garbage']) {
      await expect(p.verifyWebhook(Buffer.from(payload), header)).rejects.toBeInstanceOf(
        WebhookSignatureInvalid,
      );
    }
  });
});

describe('webhook events', () => {
  const p = () => provider();
  async function verify(type: string, object: { id: string; object: string }) {
    const { payload, signature, event } = stripe.webhook(type, object);
    const verified = await p().verifyWebhook(Buffer.from(payload), signature);
    expect(verified.id).toBe(event.id);
    expect(verified.type).toBe(type);
    return verified.change;
  }

  /** A purchase through Checkout as a customer would make it. */
  async function purchase(seats = 3, options: { trialDays?: number } = {}) {
    const org = customer({ seats });
    const { externalCustomerId } = await p().changeUrl(org, pro.prices[1]!.id, URLS);
    const [session] = stripe.all<{ id: string }>('checkout.session').slice(-1);
    const completed = stripe.completeCheckout(session!.id, {
      ...options,
      customerDetails: { email: 'billing@acme.test', name: 'Acme Billing', phone: '+44 20 7946 0000' },
    });
    return { org, customerId: externalCustomerId!, ...completed };
  }

  it('checkout.session.completed: the new subscription with its price, seats, period and the organisation', async () => {
    const { org, customerId, session, subscription } = await purchase(3);
    const change = await verify('checkout.session.completed', session);
    const item = (
      subscription.items as { data: { current_period_start: number; current_period_end: number }[] }
    ).data[0]!;
    expect(change).toEqual({
      organisationId: org.organisationId,
      externalCustomerId: customerId,
      externalSubscriptionId: subscription.id,
      status: 'active',
      externalPriceId: pro.prices[1]!.id,
      quantity: 3,
      trialEnd: null,
      currentPeriodStart: new Date(item.current_period_start * 1000),
      currentPeriodEnd: new Date(item.current_period_end * 1000),
      cancelAt: null,
      total: 3 * 9900,
      percentOff: null,
      amountOff: null,
      billingContact: { email: 'billing@acme.test', name: 'Acme Billing', phone: '+44 20 7946 0000' },
    });
  });

  it('checkout.session.completed during a trial: trialing until the trial ends', async () => {
    const { subscription, session } = await purchase(2, { trialDays: 14 });
    const change = await verify('checkout.session.completed', session);
    expect(change).toMatchObject({
      status: 'trialing',
      trialEnd: new Date((subscription.trial_end as number) * 1000),
    });
  });

  it('checkout.session.completed for a one-off payment changes nothing', async () => {
    const change = await verify('checkout.session.completed', {
      id: 'cs_test_payment',
      object: 'checkout.session',
      mode: 'payment',
      customer: 'cus_x',
      subscription: null,
    } as never);
    expect(change).toBeNull();
  });

  it("customer.subscription.updated: the subscription's current state, with its discount and total", async () => {
    const { subscription } = await purchase(4);
    const stale = stripe.get<{ id: string; object: string }>(subscription.id);
    stripe.applyCoupon(subscription.id, { percentOff: 25 });
    // Delivered late: the event's snapshot predates the coupon, the change does not.
    const change = await verify('customer.subscription.updated', stale);
    expect(change).toMatchObject({
      externalSubscriptionId: subscription.id,
      status: 'active',
      quantity: 4,
      percentOff: 25,
      amountOff: null,
      total: (4 * 9900 * 3) / 4,
    });

    stripe.applyCoupon(subscription.id, { amountOff: 5000 });
    const both = await verify('customer.subscription.created', stale);
    expect(both).toMatchObject({ percentOff: 25, amountOff: 5000, total: (4 * 9900 * 3) / 4 - 5000 });
  });

  it('customer.subscription.updated: a cancellation at the period end', async () => {
    const { subscription } = await purchase(1);
    // The customer cancels in the portal, which updates the subscription through the API.
    const update = await fetch(`${stripe.url}/v1/subscriptions/${subscription.id}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${stripe.secretKey}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'cancel_at_period_end=true',
    });
    expect(update.status).toBe(200);
    const cancelled = (await update.json()) as { id: string; object: string; cancel_at: number };
    const change = await verify('customer.subscription.updated', cancelled);
    expect(change).toMatchObject({ status: 'active', cancelAt: new Date(cancelled.cancel_at * 1000) });
    expect(cancelled.cancel_at).toBeGreaterThan(Date.now() / 1000);
  });

  it('customer.subscription.deleted: cancelled', async () => {
    const { subscription, org } = await purchase(2);
    const ended = stripe.cancelSubscription(subscription.id);
    const change = await verify('customer.subscription.deleted', ended);
    expect(change).toMatchObject({
      organisationId: org.organisationId,
      externalSubscriptionId: subscription.id,
      status: 'canceled',
    });
  });

  it('invoice.payment_failed: the subscription is past due', async () => {
    const { subscription, customerId } = await purchase(2);
    const invoice = stripe.failRenewal(subscription.id);
    const change = await verify('invoice.payment_failed', invoice);
    expect(change).toMatchObject({
      externalCustomerId: customerId,
      externalSubscriptionId: subscription.id,
      status: 'past_due',
    });
  });

  it('customer.updated: the billing contact', async () => {
    const { customerId, org } = await purchase(1);
    const updated = stripe.updateCustomer(customerId, {
      email: 'accounts@acme.test',
      name: 'Acme Accounts',
      phone: '+1 555 0100',
    });
    const change = await verify('customer.updated', updated);
    expect(change).toEqual({
      organisationId: org.organisationId,
      externalCustomerId: customerId,
      billingContact: { email: 'accounts@acme.test', name: 'Acme Accounts', phone: '+1 555 0100' },
    });
  });

  it('payment_method.attached: the card brand and last four digits', async () => {
    const { customerId } = await purchase(1);
    const card = stripe.attachCard(customerId, { brand: 'visa', last4: '4242' });
    const change = await verify('payment_method.attached', card);
    expect(change).toEqual({ externalCustomerId: customerId, card: { brand: 'visa', lastFour: '4242' } });
  });

  it('other events change nothing', async () => {
    const { subscription } = await purchase(1);
    expect(await verify('customer.subscription.trial_will_end', subscription)).toBeNull();
    expect(await verify('invoice.paid', { id: 'in_1', object: 'invoice' })).toBeNull();
  });

  it('is unavailable, not dropped, when Stripe cannot be asked for the subscription', async () => {
    const { session } = await purchase(1);
    const { payload, signature } = stripe.webhook('checkout.session.completed', session);
    stripe.failWith(500);
    await expect(p().verifyWebhook(Buffer.from(payload), signature)).rejects.toBeInstanceOf(
      BillingProviderUnavailable,
    );
    stripe.failWith(null);
    await expect(p().verifyWebhook(Buffer.from(payload), signature)).resolves.toMatchObject({
      change: { status: 'active' },
    });
  });
});
