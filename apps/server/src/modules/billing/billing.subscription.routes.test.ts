import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Product } from '@vexil/core';
import { subscriptions } from '../../db/schema/index';
import { auditTrail, createTeam, subscribe } from '../../../test/api';
import { FAKE_PRODUCTS, fakeProvider } from '../../../test/billing';
import { bearer, createHarness } from '../../../test/helpers';
import { BillingProviderUnavailable, SubscriptionChangeRefused } from './billing-provider';
import { BILLING_PORTAL_UNAVAILABLE, CHANGE_REFUSED_TITLE } from './billing-words';
import { setUpBillingRoutes, h, team, subscription } from './billing.routes.fixture';

setUpBillingRoutes();

describe('POST /api/v1/billing/subscription/manage and change (local provider)', () => {
  it('opens the in-app pages', async () => {
    const manage = await team.admin.call('POST', '/api/v1/billing/subscription/manage');
    expect(manage.statusCode).toBe(200);
    expect(manage.json()).toEqual({ url: '/admin/billing/manage' });
    const change = await team.admin.call('POST', '/api/v1/billing/subscription/change', {
      subscriptionId: 'local-team-year',
    });
    expect(change.json()).toEqual({ url: '/admin/billing/checkout?price=local-team-year' });
    const free = await team.admin.call('POST', '/api/v1/billing/subscription/change', {
      subscriptionId: 'free',
    });
    expect(free.json()).toEqual({ url: '/admin/billing/checkout?price=free' });
  });

  it('refuses an unknown price with `subscription_change_refused` and the reason in `detail`', async () => {
    const res = await team.admin.call('POST', '/api/v1/billing/subscription/change', {
      subscriptionId: 'price_nope',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      title: CHANGE_REFUSED_TITLE,
      detail: 'There is no plan with the price "price_nope".',
      code: 'subscription_change_refused',
    });
    const blank = await team.admin.call('POST', '/api/v1/billing/subscription/change', {
      subscriptionId: ' ',
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toMatchObject({ title: 'Subscription is required', code: 'invalid' });
  });
});

describe('POST /api/v1/billing/subscription/manage and change (a payment provider)', () => {
  it('passes the customer and return URLs, keeps the customer it created, and maps refusals and outages', async () => {
    let refuse: Error | null = null;
    const provider = fakeProvider();
    const changeUrl = provider.changeUrl.bind(provider);
    provider.changeUrl = async (customer, priceId, urls) => {
      if (refuse) throw refuse;
      return changeUrl(customer, priceId, urls);
    };
    const paid = await createHarness({}, { billingProvider: provider });
    try {
      const paidTeam = await createTeam(paid);
      const admin = paidTeam.admin;
      const res = await paid.app.inject({
        method: 'POST',
        url: '/api/v1/billing/subscription/change',
        headers: { ...bearer(await paid.login(admin)), host: `${admin.domain}.vexil.test` },
        payload: { subscriptionId: 'price_pro_month' },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ url: 'https://billing.example.com/checkout/price_pro_month' });
      expect(provider.calls[0]).toMatchObject({
        method: 'change',
        priceId: 'price_pro_month',
        customer: {
          organisationId: admin.organisationId,
          email: admin.email,
          externalCustomerId: null,
          seats: 4,
        },
        urls: {
          returnUrl: `http://${admin.domain}.vexil.test/admin/billing`,
          successUrl: `http://${admin.domain}.vexil.test/admin/billing?checkout=success`,
          cancelUrl: `http://${admin.domain}.vexil.test/admin/billing?checkout=cancelled`,
        },
      });
      // The customer the provider made is kept; an organisation without a subscription stays unlimited.
      const [row] = await paid.database.db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.organisationId, admin.organisationId));
      expect(row).toMatchObject({ externalCustomerId: 'cus_new', status: 'active', limits: {} });

      // A foreign Host is not trusted for the return address: PUBLIC_URL is.
      const manage = await paid.app.inject({
        method: 'POST',
        url: '/api/v1/billing/subscription/manage',
        headers: { ...bearer(await paid.login(admin)), host: 'evil.example.com' },
      });
      expect(manage.json()).toEqual({ url: 'https://billing.example.com/portal' });
      expect(provider.calls[1]).toMatchObject({
        method: 'manage',
        customer: { externalCustomerId: 'cus_new' },
        urls: { returnUrl: 'http://vexil.test/admin/billing' },
      });

      refuse = new SubscriptionChangeRefused('Your card was declined.');
      const refused = await admin.call('POST', '/api/v1/billing/subscription/change', {
        subscriptionId: 'price_pro_year',
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({
        detail: 'Your card was declined.',
        code: 'subscription_change_refused',
      });

      refuse = new BillingProviderUnavailable('timeout');
      const down = await admin.call('POST', '/api/v1/billing/subscription/change', {
        subscriptionId: 'price_pro_year',
      });
      expect(down.statusCode).toBe(503);
      expect(down.json()).toMatchObject({ title: BILLING_PORTAL_UNAVAILABLE, code: 'billing_unavailable' });

      // The Free plan is the provider's cancellation, not a price.
      const free = await admin.call('POST', '/api/v1/billing/subscription/change', {
        subscriptionId: 'free',
      });
      expect(free.json()).toMatchObject({ code: 'subscription_change_refused' });

      // The local pages are the local provider's only.
      const local = await admin.call('POST', '/api/v1/billing/local/subscribe', {
        priceId: 'local-team-month',
      });
      expect(local.statusCode).toBe(404);
      const products = (await admin.call('GET', '/api/v1/products/')).json<Product[]>();
      expect(products.map((p) => p.id)).toEqual(FAKE_PRODUCTS.map((p) => p.id));
    } finally {
      await paid.close();
    }
  });

  it('answers 503 `billing_unavailable` when the portal cannot be opened', async () => {
    const down = await createHarness(
      {},
      {
        billingProvider: fakeProvider({
          manageUrl: async () => {
            throw new Error('ECONNRESET');
          },
        }),
      },
    );
    try {
      const admin = (await createTeam(down)).admin;
      const res = await admin.call('POST', '/api/v1/billing/subscription/manage');
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ title: BILLING_PORTAL_UNAVAILABLE, code: 'billing_unavailable' });
    } finally {
      await down.close();
    }
  });
});

describe('POST /api/v1/billing/local/subscribe', () => {
  it('puts the organisation on the plan at once, ending its trial, with the plan’s limits', async () => {
    await h.database.db.insert(subscriptions).values({
      organisationId: team.admin.organisationId,
      status: 'trialing',
      trialEnd: new Date(Date.now() + 3 * 24 * 60 * 60 * 1000),
      productName: 'Team',
      limits: { maxProjects: 10 },
    });
    const res = await team.admin.call('POST', '/api/v1/billing/local/subscribe', {
      priceId: 'local-team-year',
    });
    expect(res.statusCode, res.body).toBe(200);
    const expected = {
      status: 'active',
      inTrial: false,
      daysUntilEndOfTrial: null,
      quantity: 4,
      total: 4 * 19200,
      price: {
        productName: 'Team',
        currency: 'usd',
        interval: 'year',
        intervalCount: 1,
        amount: 19200,
        unitLabel: 'seat',
      },
      limits: {
        maxOrganisationUsers: null,
        auditLog: true,
        variantTesting: true,
        maxApplicationUniqueUsers: 100_000,
        maxImpressions: 10_000_000,
        maxProjects: 10,
        maxEnvironments: 50,
        maxFeatures: null,
      },
    };
    expect(res.json()).toMatchObject(expected);
    expect(await subscription(team.admin.call)).toMatchObject(expected);
    expect((await auditTrail(team.admin.call))[0]).toMatchObject({ title: 'Subscription changed to Team' });
  });

  it('takes the seats to pay for, never fewer than those in use', async () => {
    const more = await team.admin.call('POST', '/api/v1/billing/local/subscribe', {
      priceId: 'local-team-month',
      seats: 10,
    });
    expect(more.json()).toMatchObject({ quantity: 10, total: 20_000 });
    const fewer = await team.admin.call('POST', '/api/v1/billing/local/subscribe', {
      priceId: 'local-team-month',
      seats: 3,
    });
    expect(fewer.statusCode).toBe(400);
    expect(fewer.json()).toMatchObject({
      code: 'subscription_change_refused',
      detail: '4 seats are in use (members and pending invitations): choose at least 4.',
    });
    const zero = await team.admin.call('POST', '/api/v1/billing/local/subscribe', {
      priceId: 'local-team-month',
      seats: 0,
    });
    expect(zero.json()).toMatchObject({ code: 'invalid', errors: [{ field: 'seats' }] });
  });

  it('moves to the Free plan: a single seat, 1 project, 2 environments', async () => {
    const res = await team.admin.call('POST', '/api/v1/billing/local/subscribe', { priceId: 'free' });
    expect(res.json()).toMatchObject({
      status: 'active',
      total: 0,
      price: { productName: 'Free', amount: 0 },
      limits: {
        maxOrganisationUsers: 1,
        maxProjects: 1,
        maxEnvironments: 2,
        auditLog: false,
        variantTesting: false,
      },
    });
  });

  it('refuses a price the catalogue does not have', async () => {
    const res = await team.admin.call('POST', '/api/v1/billing/local/subscribe', {
      priceId: 'local-gold-month',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'subscription_change_refused' });
    expect(await subscription(team.admin.call)).toBeNull();
  });
});

describe('PUT /api/v1/billing/local/contact', () => {
  it('keeps the billing contact that billing/info shows', async () => {
    await subscribe(h, team.admin.organisationId, {});
    const res = await team.admin.call('PUT', '/api/v1/billing/local/contact', {
      email: 'Accounts@Example.com ',
      name: 'Accounts payable',
      phone: '+44 20 7946 0000',
    });
    expect(res.statusCode, res.body).toBe(200);
    const info = {
      lastFour: null,
      brand: null,
      customer: { email: 'Accounts@Example.com', name: 'Accounts payable', phone: '+44 20 7946 0000' },
    };
    expect(res.json()).toEqual(info);
    expect((await team.admin.call('GET', '/api/v1/billing/info')).json()).toEqual(info);
    const cleared = await team.admin.call('PUT', '/api/v1/billing/local/contact', {
      email: '',
      name: '',
      phone: '',
    });
    expect(cleared.json()).toEqual({ lastFour: null, brand: null, customer: null });
  });

  it('refuses a bad e-mail address', async () => {
    const bad = await team.admin.call('PUT', '/api/v1/billing/local/contact', { email: 'not-an-address' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ errors: [{ field: 'email', message: 'Email must be valid' }] });
  });

  it('keeps the contact of an organisation without a subscription, which stays unlimited', async () => {
    const res = await team.outsider.call('PUT', '/api/v1/billing/local/contact', { name: 'Outsider Ltd' });
    expect(res.json()).toMatchObject({ customer: { name: 'Outsider Ltd', email: null } });
    expect(await subscription(team.outsider.call)).toMatchObject({
      status: 'active',
      inTrial: false,
      price: null,
      limits: { maxProjects: null, maxOrganisationUsers: null, auditLog: true },
    });
  });
});
