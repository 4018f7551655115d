import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Subscription } from '@vexil/core';
import { billingEvents, subscriptions } from '../../../db/schema/index';
import { auditTrail, callerFor, type Caller } from '../../../../test/api';
import { startFakeStripe, type FakeStripe } from '../../../../test/fake-stripe';
import { createHarness, type Harness, type TestUser } from '../../../../test/helpers';

/*
 * The Stripe provider end to end: the dashboard's "Update Subscription" through the server's API to
 * Checkout on the stand-in Stripe, the customer paying there, and Stripe's signed webhook delivered
 * to POST /api/v1/billing/webhook, applied once.
 */

let stripe: FakeStripe;
let h: Harness;
let team: { product: { id: string }; prices: { id: string }[] };

beforeAll(async () => {
  stripe = await startFakeStripe();
  team = stripe.addProduct({
    name: 'Team',
    marketingFeatures: ['10 projects', 'Audit log'],
    metadata: { maxProjects: '10', maxEnvironments: '20', auditLog: 'true', variantTesting: 'false' },
    prices: [
      { interval: 'month', amount: 2000 },
      { interval: 'year', amount: 19_200 },
    ],
  });
  h = await createHarness({
    BILLING_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    STRIPE_API_URL: stripe.url,
  });
});
afterAll(async () => {
  await h?.close();
  await stripe?.close();
});

async function admin(): Promise<TestUser & { call: Caller }> {
  const user = await h.createOrganisation();
  return { ...user, call: callerFor(h.app, await h.login(user)) };
}

/** The admin buys Team monthly in Checkout; answers the completed session's webhook, not yet delivered. */
async function buyTeam(call: Caller) {
  const res = await call('POST', '/api/v1/billing/subscription/change', {
    subscriptionId: team.prices[0]!.id,
  });
  expect(res.statusCode, res.body).toBe(200);
  const { url } = res.json<{ url: string }>();
  const sessionId = url.split('/').pop()!;
  expect(sessionId).toMatch(/^cs_test_/);
  const { session, subscription } = stripe.completeCheckout(sessionId);
  return { ...stripe.webhook('checkout.session.completed', session), subscription };
}

function deliver(payload: string, signature: string | undefined) {
  return h.app.inject({
    method: 'POST',
    url: '/api/v1/billing/webhook',
    headers: {
      'content-type': 'application/json',
      ...(signature === undefined ? {} : { 'stripe-signature': signature }),
    },
    payload,
  });
}

async function subscriptionOf(call: Caller): Promise<Subscription | null> {
  const res = await call('GET', '/api/v1/initial');
  expect(res.statusCode).toBe(200);
  return res.json<{ subscription: Subscription | null }>().subscription;
}

async function storedEvents(id: string) {
  return h.database.db.select().from(billingEvents).where(eq(billingEvents.id, id));
}

describe('Stripe webhooks through the server', () => {
  it('a completed Checkout stores the subscription with the plan, its seats and its limits', async () => {
    const { call, organisationId } = await admin();
    const { payload, signature, event, subscription } = await buyTeam(call);

    const res = await deliver(payload, signature);
    expect(res.statusCode, res.body).toBe(200);

    const stored = await subscriptionOf(call);
    expect(stored).toMatchObject({
      id: subscription.id,
      status: 'active',
      quantity: 1,
      total: 2000,
      price: { productName: 'Team', currency: 'usd', interval: 'month', amount: 2000 },
      limits: {
        maxProjects: 10,
        maxEnvironments: 20,
        auditLog: true,
        variantTesting: false,
        maxFeatures: null,
      },
    });
    const [row] = await h.database.db
      .select({ customer: subscriptions.externalCustomerId })
      .from(subscriptions)
      .where(eq(subscriptions.organisationId, organisationId));
    expect(row!.customer).toBe(subscription.customer);
    expect(await storedEvents(event.id)).toHaveLength(1);
  });

  it('the same event delivered again is answered 200 and applied only once', async () => {
    const { call } = await admin();
    const { payload, signature, event, subscription } = await buyTeam(call);
    expect((await deliver(payload, signature)).statusCode).toBe(200);
    const auditBefore = await auditTrail(call);

    // Meanwhile the subscription ends in Stripe; its own event has not arrived. Were the replay
    // processed again, it would read the subscription afresh and record the cancellation.
    stripe.cancelSubscription(subscription.id);
    const replay = await deliver(payload, signature);

    expect(replay.statusCode, replay.body).toBe(200);
    expect(replay.json()).toEqual({ received: true, duplicate: true });
    expect(await subscriptionOf(call)).toMatchObject({ id: subscription.id, status: 'active' });
    expect(await storedEvents(event.id)).toHaveLength(1);
    expect(await auditTrail(call)).toEqual(auditBefore);
  });

  it('a delivery whose signature does not verify is refused with 400 and changes nothing', async () => {
    const { call, organisationId } = await admin();
    const { payload, signature, event } = await buyTeam(call);
    const seconds = Math.floor(Date.now() / 1000);
    const forged = stripe.sign(payload, { secret: 'whsec_0123456789abcdef' });
    const stale = stripe.sign(payload, { timestamp: seconds - 600 });
    const tampered = payload.replace('"livemode": false', '"livemode": true');

    for (const [body, header] of [
      [payload, forged],
      [payload, stale],
      [tampered, signature],
      [payload, undefined],
    ] as const) {
      const res = await deliver(body, header);
      expect(res.statusCode, res.body).toBe(400);
    }

    expect(await storedEvents(event.id)).toHaveLength(0);
    const [row] = await h.database.db
      .select({ externalSubscriptionId: subscriptions.externalSubscriptionId, limits: subscriptions.limits })
      .from(subscriptions)
      .where(eq(subscriptions.organisationId, organisationId));
    // The purchase stored at most the customer it created, never the subscription.
    expect(row?.externalSubscriptionId ?? null).toBeNull();

    // Signed properly, the same event is then applied.
    expect((await deliver(payload, signature)).statusCode).toBe(200);
    expect(await subscriptionOf(call)).toMatchObject({ status: 'active', limits: { maxProjects: 10 } });
  });
});
