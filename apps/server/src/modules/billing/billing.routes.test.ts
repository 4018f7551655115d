import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  BILLING_ADMIN_ONLY,
  type BillingInfo,
  type Product,
  type Project,
  type Subscription,
  type Usage,
} from '@vexil/core';
import {
  environments,
  impressionCounters,
  prices,
  products,
  subscriptions,
  targetUsers,
} from '../../db/schema/index';
import { auditTrail, createTeam, subscribe, type Caller, type Team } from '../../../test/api';
import { FAKE_PRODUCTS, fakeProvider } from '../../../test/billing';
import { createFeature } from '../../../test/features';
import { bearer, createHarness, type Harness } from '../../../test/helpers';
import { BillingProviderUnavailable, SubscriptionChangeRefused } from './billing-provider';
import { monthOf } from './billing-usage';
import { BILLING_PORTAL_UNAVAILABLE, CHANGE_REFUSED_TITLE } from './billing-words';

let h: Harness;
let team: Team;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  // Payload rebuilds the last test's changes started finish before their tables are emptied.
  await h.app.sdk.store.settled();
  await h.database.reset();
  team = await createTeam(h);
});

async function subscription(call: Caller): Promise<Subscription | null> {
  return (await call('GET', '/api/v1/initial')).json<{ subscription: Subscription | null }>().subscription;
}

const ADMIN_ONLY_CALLS: [method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown][] = [
  ['GET', '/api/v1/products/'],
  ['GET', '/api/v1/billing/info'],
  ['GET', '/api/v1/billing/usage'],
  ['POST', '/api/v1/billing/subscription/manage'],
  ['POST', '/api/v1/billing/subscription/change', { subscriptionId: 'local-team-month' }],
  ['POST', '/api/v1/billing/local/subscribe', { priceId: 'local-team-month' }],
  ['PUT', '/api/v1/billing/local/contact', { email: 'billing@example.com' }],
];

describe('permissions', () => {
  it.each(ADMIN_ONLY_CALLS)('%s %s is for organisation admins only', async (method, url, body) => {
    for (const member of [team.productionEditor, team.editor, team.readOnly]) {
      const res = await member.call(method, url, body);
      expect(res.statusCode, `${member.email}: ${res.body}`).toBe(403);
      expect(res.json()).toMatchObject({ title: BILLING_ADMIN_ONLY, code: 'forbidden' });
    }
    const admin = await team.admin.call(method, url, body);
    expect(admin.statusCode, admin.body).toBeLessThan(400);
  });

  it('answers 404 while the billing flag is off', async () => {
    const off = await createHarness({ VEXIL_UI_FLAGS: 'billing=off' });
    try {
      const offTeam = await createTeam(off);
      for (const [method, url, body] of ADMIN_ONLY_CALLS) {
        const res = await offTeam.admin.call(method, url, body);
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json()).toMatchObject({ detail: 'Billing is turned off on this server.' });
      }
    } finally {
      await off.close();
    }
  });
});

describe('GET /api/v1/products/', () => {
  it('lists the local catalogue’s paid plans with stable ids and keeps the catalogue tables in step', async () => {
    const res = await team.admin.call('GET', '/api/v1/products/');
    expect(res.statusCode).toBe(200);
    expect(res.json<Product[]>()).toEqual([
      {
        id: 'local-team',
        name: 'Team',
        features: expect.arrayContaining(['Audit log', 'Experiments']),
        prices: {
          month: { id: 'local-team-month', amount: 2000, currency: 'usd', interval: 'month' },
          year: { id: 'local-team-year', amount: 19200, currency: 'usd', interval: 'year' },
        },
      },
    ]);
    const [product] = await h.database.db
      .select()
      .from(products)
      .where(eq(products.externalId, 'local-team'));
    expect(product).toMatchObject({
      name: 'Team',
      active: true,
      limits: { maxProjects: 10, auditLog: true },
    });
    const rows = await h.database.db.select().from(prices).where(eq(prices.productId, product!.id));
    expect(rows.map((p) => [p.externalId, p.interval, p.amount]).sort()).toEqual([
      ['local-team-month', 'month', 2000],
      ['local-team-year', 'year', 19200],
    ]);
  });

  it('takes the plans from BILLING_PLANS_FILE', async () => {
    const { writeFileSync, mkdtempSync } = await import('node:fs');
    const path = await import('node:path');
    const os = await import('node:os');
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'vexil-plans-')), 'plans.json');
    writeFileSync(
      file,
      JSON.stringify({
        currency: 'EUR',
        products: [
          {
            id: 'starter',
            name: 'Starter',
            features: ['3 projects'],
            limits: { maxProjects: 3 },
            prices: { month: 900 },
          },
          { id: 'scale', name: 'Scale', prices: { month: 4900, year: 49000 } },
        ],
      }),
    );
    const custom = await createHarness({ BILLING_PLANS_FILE: file });
    try {
      const admin = (await createTeam(custom)).admin;
      const listed = (await admin.call('GET', '/api/v1/products/')).json<Product[]>();
      expect(listed.map((p) => [p.id, p.name, Object.values(p.prices).map((price) => price!.id)])).toEqual([
        ['local-starter', 'Starter', ['local-starter-month']],
        ['local-scale', 'Scale', ['local-scale-month', 'local-scale-year']],
      ]);
      expect(listed[0]!.prices.month).toMatchObject({ currency: 'eur', amount: 900 });
    } finally {
      await custom.close();
    }
  });

  it('answers 503 `billing_unavailable` when the provider cannot list its plans', async () => {
    const down = await createHarness(
      {},
      {
        billingProvider: fakeProvider({
          products: async () => {
            throw new BillingProviderUnavailable('Stripe is down');
          },
        }),
      },
    );
    try {
      const admin = (await createTeam(down)).admin;
      const res = await admin.call('GET', '/api/v1/products/');
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ title: BILLING_PORTAL_UNAVAILABLE, code: 'billing_unavailable' });
    } finally {
      await down.close();
    }
  });
});

describe('GET /api/v1/billing/info', () => {
  it('is all null without billing information', async () => {
    const res = await team.admin.call('GET', '/api/v1/billing/info');
    expect(res.json()).toEqual({ lastFour: null, brand: null, customer: null });
  });

  it('shows the stored card and billing contact', async () => {
    await h.database.db.insert(subscriptions).values({
      organisationId: team.admin.organisationId,
      status: 'active',
      cardBrand: 'visa',
      cardLastFour: '4242',
      billingEmail: 'accounts@example.com',
      billingName: 'Accounts',
    });
    const res = await team.admin.call('GET', '/api/v1/billing/info');
    expect(res.json()).toEqual({
      lastFour: '4242',
      brand: 'visa',
      customer: { email: 'accounts@example.com', name: 'Accounts', phone: null },
    });
    // Another organisation sees its own (none).
    expect((await team.outsider.call('GET', '/api/v1/billing/info')).json<BillingInfo>().lastFour).toBeNull();
  });
});

describe('GET /api/v1/billing/usage', () => {
  it('counts seats (members and pending invitations), live projects, environments and features', async () => {
    const web = (
      await team.admin.call('POST', '/api/v1/projects/', { name: 'Web', key: 'web' })
    ).json<Project>();
    await team.admin.call('POST', '/api/v1/projects/', { name: 'App', key: 'app' });
    const gone = (
      await team.admin.call('POST', '/api/v1/projects/', { name: 'Gone', key: 'gone' })
    ).json<Project>();
    await createFeature(team.admin.call, 'web', { name: 'One', key: 'one' });
    await createFeature(team.admin.call, 'web', { name: 'Two', key: 'two' });
    await createFeature(team.admin.call, 'gone', { name: 'Three', key: 'three' });
    expect((await team.admin.call('DELETE', `/api/v1/projects/${gone.id}`)).statusCode).toBe(204);
    const staging = await team.admin.call('POST', '/api/v1/environments/', {
      projectKey: 'web',
      name: 'Staging',
      key: 'staging',
      color: '#123456',
    });
    expect(staging.statusCode, staging.body).toBe(201);
    await team.admin.call('DELETE', `/api/v1/environments/${web.environments[0]!.id}`);
    const invited = await team.admin.call('POST', '/api/v1/invites', [{ email: 'new@example.com' }]);
    expect(invited.statusCode, invited.body).toBe(201);

    const usage = (await team.admin.call('GET', '/api/v1/billing/usage')).json<Usage>();
    expect(usage).toMatchObject({
      // Admin, production editor, editor and read-only user, and the pending invitation.
      seats: 5,
      projectsUsed: 2,
      // web: development and staging (production deleted); app: production and development.
      environmentsUsed: 4,
      featuresUsed: 2,
      applicationUniqueUsersUsed: 0,
      impressionsUsed: 0,
      warnings: [],
    });
  });

  it('counts this calendar month’s application users and impressions from the SDK traffic', async () => {
    const project = (
      await team.admin.call('POST', '/api/v1/projects/', { name: 'Web', key: 'web' })
    ).json<Project>();
    const development = project.environments.find((e) => e.key === 'development')!;
    const feature = await createFeature(team.admin.call, 'web', { name: 'Checkout', key: 'checkout' });
    await h.app.sdk.store.settled();
    const events = [
      { featureKey: 'checkout', evaluatedVariant: 'on', expectedVariant: 'on', user: 'user-1' },
      { featureKey: 'checkout', evaluatedVariant: 'off', expectedVariant: 'off', user: 'user-2' },
      { featureKey: 'checkout', evaluatedVariant: 'on', expectedVariant: 'on', user: 'user-1' },
    ];
    const sent = await h.app.inject({
      method: 'POST',
      url: '/api/sdk/v1/events',
      headers: { authorization: `Bearer ${development.apiKey}`, 'content-type': 'application/json' },
      payload: JSON.stringify(events),
    });
    expect(sent.statusCode).toBe(200);
    await h.app.sdk.ingestion.flush();
    // Last month's traffic does not count: a user last seen then, impressions counted then.
    const { start } = monthOf(new Date());
    const lastMonth = new Date(start.getTime() - 24 * 60 * 60 * 1000);
    const [env] = await h.database.db.select().from(environments).where(eq(environments.id, development.id));
    await h.database.db.insert(targetUsers).values({
      organisationId: team.admin.organisationId,
      environmentId: env!.id,
      userKey: 'old-user',
      lastSeenAt: lastMonth,
    });
    await h.database.db.insert(impressionCounters).values({
      organisationId: team.admin.organisationId,
      featureControlId: feature.controls.development!.id,
      variantKey: 'on',
      day: lastMonth.toISOString().slice(0, 10),
      count: 1000,
    });

    const usage = (await team.admin.call('GET', '/api/v1/billing/usage')).json<Usage>();
    expect(usage).toMatchObject({
      applicationUniqueUsersUsed: 2,
      impressionsUsed: 3,
      periodStart: start.toISOString(),
    });
    expect(new Date(usage.periodEnd).getUTCDate()).toBe(1);
    expect((await team.outsider.call('GET', '/api/v1/billing/usage')).json<Usage>().impressionsUsed).toBe(0);
  });

  it('warns, with the impressions-limits flag, when a monthly limit is reached', async () => {
    const project = (
      await team.admin.call('POST', '/api/v1/projects/', { name: 'Web', key: 'web' })
    ).json<Project>();
    const feature = await createFeature(team.admin.call, 'web', { name: 'Checkout', key: 'checkout' });
    await h.database.db.insert(impressionCounters).values({
      organisationId: team.admin.organisationId,
      featureControlId: feature.controls.development!.id,
      variantKey: 'on',
      day: new Date().toISOString().slice(0, 10),
      count: 12_000,
    });
    await h.database.db.insert(targetUsers).values({
      organisationId: team.admin.organisationId,
      environmentId: project.environments[0]!.id,
      userKey: 'only-user',
    });
    await subscribe(h, team.admin.organisationId, { maxImpressions: 10_000, maxApplicationUniqueUsers: 2 });
    const usage = (await team.admin.call('GET', '/api/v1/billing/usage')).json<Usage>();
    expect(usage.warnings).toEqual([
      {
        key: 'maxImpressions',
        used: 12_000,
        limit: 10_000,
        message:
          '12,000 impressions this month: your plan includes 10,000. Features keep evaluating; upgrade your plan to stay within it.',
      },
    ]);

    const quiet = await createHarness({ VEXIL_UI_FLAGS: 'impressions-limits=off' });
    try {
      const other = await createTeam(quiet);
      await subscribe(quiet, other.admin.organisationId, { maxImpressions: 0 });
      expect((await other.admin.call('GET', '/api/v1/billing/usage')).json<Usage>().warnings).toEqual([]);
    } finally {
      await quiet.close();
    }
  });
});

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
