import { describe, expect, it } from 'vitest';
import { BillingProviderUnavailable, SubscriptionChangeRefused } from '../billing-provider';
import { startFakeStripe } from '../../../../test/fake-stripe';
import {
  setUpFakeStripe,
  URLS,
  stripe,
  starter,
  pro,
  declining,
  provider,
  customer,
  received,
  refusal,
} from './stripe-provider.fixture';

setUpFakeStripe();

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
