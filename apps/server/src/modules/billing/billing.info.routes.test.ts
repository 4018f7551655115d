import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { BILLING_ADMIN_ONLY, type BillingInfo, type Product, type Project, type Usage } from '@vexil/core';
import {
  environments,
  impressionCounters,
  prices,
  products,
  subscriptions,
  targetUsers,
} from '../../db/schema/index';
import { createTeam, subscribe } from '../../../test/api';
import { fakeProvider } from '../../../test/billing';
import { createFeature } from '../../../test/features';
import { createHarness } from '../../../test/helpers';
import { BillingProviderUnavailable } from './billing-provider';
import { monthOf } from './billing-usage';
import { BILLING_PORTAL_UNAVAILABLE } from './billing-words';
import { setUpBillingRoutes, h, team } from './billing.routes.fixture';

setUpBillingRoutes();

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
