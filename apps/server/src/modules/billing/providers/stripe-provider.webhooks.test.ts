import { describe, expect, it } from 'vitest';
import { BillingProviderUnavailable, WebhookSignatureInvalid } from '../billing-provider';
import { setUpFakeStripe, URLS, stripe, pro, provider, customer } from './stripe-provider.fixture';

setUpFakeStripe();

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
