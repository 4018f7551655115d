import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { BillingInfo, Subscription } from '@vexil/core';
import { auditItems, billingEvents, subscriptions } from '../../db/schema/index';
import { createTeam, type Team } from '../../../test/api';
import { FAKE_SIGNATURE, fakeProvider, webhookBody } from '../../../test/billing';
import { createHarness, type Harness } from '../../../test/helpers';
import { BillingProviderUnavailable, type ProviderEvent } from './billing-provider';

let h: Harness;
let team: Team;
let outage: Error | null = null;

beforeAll(async () => {
  const provider = fakeProvider();
  const verify = provider.verifyWebhook!.bind(provider);
  provider.verifyWebhook = async (rawBody, signature) => {
    if (outage) throw outage;
    return verify(rawBody, signature);
  };
  h = await createHarness({}, { billingProvider: provider });
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  // Payload rebuilds the last test's changes started finish before their tables are emptied.
  await h.app.sdk.store.settled();
  await h.database.reset();
  outage = null;
  team = await createTeam(h);
  // A new organisation's trial, as the sign-up starts it.
  await h.database.db.insert(subscriptions).values({
    organisationId: team.admin.organisationId,
    status: 'trialing',
    trialEnd: new Date(Date.now() + 10 * 24 * 60 * 60 * 1000),
    productName: 'Team',
    limits: { maxProjects: 10 },
  });
});

function deliver(event: ProviderEvent | string, signature: string | null = FAKE_SIGNATURE) {
  return h.app.inject({
    method: 'POST',
    url: '/api/v1/billing/webhook',
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...(signature === null ? {} : { 'stripe-signature': signature }),
    },
    payload: typeof event === 'string' ? event : webhookBody(event),
  });
}

async function subscription(): Promise<Subscription> {
  return (await team.admin.call('GET', '/api/v1/initial')).json<{ subscription: Subscription }>()
    .subscription;
}

function purchase(id = 'evt_1'): ProviderEvent {
  return {
    id,
    type: 'customer.subscription.updated',
    change: {
      organisationId: team.admin.organisationId,
      externalCustomerId: 'cus_1',
      externalSubscriptionId: 'sub_1',
      status: 'active',
      externalPriceId: 'price_pro_month',
      quantity: 3,
      trialEnd: null,
      currentPeriodStart: new Date('2026-11-01T00:00:00Z'),
      currentPeriodEnd: new Date('2026-12-01T00:00:00Z'),
      card: { brand: 'visa', lastFour: '4242' },
      billingContact: { email: 'accounts@example.com', name: 'Accounts', phone: null },
    },
  };
}

describe('POST /api/v1/billing/webhook', () => {
  it('applies a purchase: the catalogue’s product, price and limits, the card and the contact', async () => {
    const res = await deliver(purchase());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ received: true, duplicate: false });
    expect(await subscription()).toMatchObject({
      id: 'sub_1',
      status: 'active',
      inTrial: false,
      daysUntilEndOfTrial: null,
      quantity: 3,
      total: 9000,
      price: { productName: 'Pro', currency: 'eur', interval: 'month', amount: 3000, unitLabel: 'seat' },
      limits: {
        maxProjects: 7,
        maxEnvironments: 21,
        auditLog: true,
        variantTesting: false,
        maxFeatures: null,
      },
    });
    expect((await team.admin.call('GET', '/api/v1/billing/info')).json<BillingInfo>()).toEqual({
      lastFour: '4242',
      brand: 'visa',
      customer: { email: 'accounts@example.com', name: 'Accounts', phone: null },
    });
    const audit = await h.database.db
      .select()
      .from(auditItems)
      .where(eq(auditItems.organisationId, team.admin.organisationId));
    // The team's sign-ins aside (action 'login'), the event's one entry.
    const changes = audit.filter((a) => a.action !== 'login');
    expect(changes.map((a) => a.title)).toEqual(['Subscription updated by Stripe']);
    expect(changes[0]!.actorId).toBeNull();
  });

  it('processes an event once: a replay is answered 200 and changes nothing', async () => {
    expect((await deliver(purchase())).statusCode).toBe(200);
    const replay = purchase();
    replay.change!.status = 'canceled';
    replay.change!.quantity = 9;
    const res = await deliver(replay);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: true, duplicate: true });
    expect(await subscription()).toMatchObject({ status: 'active', quantity: 3 });
    expect(await h.database.db.select().from(billingEvents)).toEqual([
      { id: 'evt_1', type: 'customer.subscription.updated', receivedAt: expect.any(Date) },
    ]);
  });

  it('applies an event delivered several times at once exactly once', async () => {
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => deliver(purchase('evt_race'))));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.filter((a) => a.json<{ duplicate: boolean }>().duplicate === false)).toHaveLength(1);
    const audit = await h.database.db
      .select()
      .from(auditItems)
      .where(eq(auditItems.organisationId, team.admin.organisationId));
    expect(audit.filter((a) => a.action !== 'login')).toHaveLength(1);
  });

  it('finds the organisation by the provider’s customer when the event does not name it, and clears with null', async () => {
    await deliver(purchase());
    const canceled: ProviderEvent = {
      id: 'evt_2',
      type: 'customer.subscription.deleted',
      change: {
        externalCustomerId: 'cus_1',
        externalSubscriptionId: 'sub_1',
        status: 'canceled',
        card: null,
      },
    };
    expect((await deliver(canceled)).statusCode).toBe(200);
    expect(await subscription()).toMatchObject({ status: 'inactive', price: { productName: 'Pro' } });
    expect((await team.admin.call('GET', '/api/v1/billing/info')).json<BillingInfo>()).toMatchObject({
      lastFour: null,
      brand: null,
    });
    // Inactive: changes are refused, with the code the dashboard acts on.
    const refused = await team.admin.call('POST', '/api/v1/projects/', { name: 'Web', key: 'web' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'subscription_inactive' });
  });

  it('records and ignores an event for a customer of no organisation, and one that changes nothing', async () => {
    const stranger: ProviderEvent = {
      id: 'evt_stranger',
      type: 'customer.updated',
      change: { organisationId: 'not-a-uuid', externalCustomerId: 'cus_unknown', status: 'active' },
    };
    expect((await deliver(stranger)).json()).toEqual({ received: true, duplicate: false });
    expect((await deliver({ id: 'evt_ping', type: 'invoice.created', change: null })).statusCode).toBe(200);
    expect((await h.database.db.select().from(billingEvents)).map((e) => e.id).sort()).toEqual([
      'evt_ping',
      'evt_stranger',
    ]);
    expect(await subscription()).toMatchObject({ status: 'active', inTrial: true });
  });

  it('refuses a bad or missing signature with 400 and records nothing', async () => {
    for (const signature of ['t=1,v1=forged', null]) {
      const res = await deliver(purchase(), signature);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ title: 'The webhook signature could not be verified.' });
    }
    expect(await h.database.db.select().from(billingEvents)).toEqual([]);
    expect(await subscription()).toMatchObject({ inTrial: true });
  });

  it('answers 503 without recording when the provider cannot be asked, so a redelivery applies', async () => {
    outage = new BillingProviderUnavailable('Stripe timed out');
    const res = await deliver(purchase());
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'billing_unavailable' });
    expect(await h.database.db.select().from(billingEvents)).toEqual([]);
    outage = null;
    expect((await deliver(purchase())).json()).toEqual({ received: true, duplicate: false });
    expect(await subscription()).toMatchObject({ status: 'active', price: { productName: 'Pro' } });
  });

  it('needs no session, and is 404 with the local provider, which sends no webhooks', async () => {
    const local = await createHarness();
    try {
      const res = await local.app.inject({
        method: 'POST',
        url: '/api/v1/billing/webhook',
        headers: { 'content-type': 'application/json' },
        payload: '{}',
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ detail: 'This server’s billing provider sends no webhooks.' });
    } finally {
      await local.close();
    }
  });
});

describe('GET /api/v1/billing/change-preview with a payment provider', () => {
  it('asks the Plans section to say what a change means, since the provider changes the plan at once', async () => {
    const res = await team.admin.call('GET', '/api/v1/billing/change-preview?price=free');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ plan: 'Free', confirmsAtCheckout: false });
  });
});
