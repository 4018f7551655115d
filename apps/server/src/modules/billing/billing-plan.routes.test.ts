import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  BILLING_ADMIN_ONLY,
  FREE_PLAN_LIMITS,
  type PlanChangePreview,
  type PlanCounts,
  type Usage,
} from '@vexil/core';
import { subscriptions } from '../../db/schema/index';
import { createTeam, type Team } from '../../../test/api';
import { createFeature } from '../../../test/features';
import { createHarness, type Harness } from '../../../test/helpers';

const DAY_MS = 24 * 60 * 60 * 1000;

let h: Harness;
let team: Team;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  await h.app.sdk.store.settled();
  await h.database.reset();
  team = await createTeam(h);
});

const members = () => [team.admin, team.productionEditor, team.editor, team.readOnly];

describe('GET /api/v1/billing/limits', () => {
  it('tells every member the counts the creation limits compare with, those of their organisation', async () => {
    await team.admin.call('POST', '/api/v1/projects/', { name: 'Web', key: 'web' });
    await createFeature(team.admin.call, 'web', { name: 'One', key: 'one' });
    const usage = (await team.admin.call('GET', '/api/v1/billing/usage')).json<Usage>();
    expect(usage.featuresUsed).toBe(1);
    for (const member of members()) {
      const res = await member.call('GET', '/api/v1/billing/limits');
      expect(res.statusCode, `${member.email}: ${res.body}`).toBe(200);
      expect(res.json<PlanCounts>()).toEqual({
        seats: usage.seats,
        projectsUsed: usage.projectsUsed,
        environmentsUsed: usage.environmentsUsed,
        featuresUsed: 1,
      });
    }
    const other = (await team.outsider.call('GET', '/api/v1/billing/limits')).json<PlanCounts>();
    expect(other.featuresUsed).toBe(0);
    expect(other.seats).toBe(1);
  });
});

describe('GET /api/v1/billing/sales-contact', () => {
  it('is null unless BILLING_SALES_CONTACT is set, and for organisation admins only', async () => {
    expect((await team.admin.call('GET', '/api/v1/billing/sales-contact')).json()).toEqual({ url: null });
    for (const member of [team.productionEditor, team.editor, team.readOnly]) {
      const res = await member.call('GET', '/api/v1/billing/sales-contact');
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ title: BILLING_ADMIN_ONLY, code: 'forbidden' });
    }
    const configured = await createHarness({ BILLING_SALES_CONTACT: 'sales@acme.example' });
    try {
      const admin = (await createTeam(configured)).admin;
      expect((await admin.call('GET', '/api/v1/billing/sales-contact')).json()).toEqual({
        url: 'mailto:sales@acme.example?subject=Vexil%20plans',
      });
    } finally {
      await configured.close();
    }
  });
});

describe('GET /api/v1/billing/change-preview', () => {
  beforeEach(async () => {
    // The Team plan's trial, 12 days left; the team has 4 seats.
    await h.database.db.insert(subscriptions).values({
      organisationId: team.admin.organisationId,
      status: 'trialing',
      trialEnd: new Date(Date.now() + 12 * DAY_MS - 60_000),
      productName: 'Team',
      currency: 'usd',
      interval: 'month',
      amount: 2000,
      limits: { maxProjects: 10, auditLog: true, variantTesting: true },
    });
    for (const key of ['p1', 'p2'])
      await team.admin.call('POST', '/api/v1/projects/', { name: key.toUpperCase(), key });
  });

  it('lists what passes the Free plan’s limits and what would be lost, before the change', async () => {
    const usage = (await team.admin.call('GET', '/api/v1/billing/usage')).json<Usage>();
    const res = await team.admin.call('GET', '/api/v1/billing/change-preview?price=free');
    expect(res.statusCode, res.body).toBe(200);
    const preview = res.json<PlanChangePreview>();
    expect(preview.plan).toBe('Free');
    expect(preview.exceeded).toEqual([
      {
        key: 'maxOrganisationUsers',
        used: usage.seats,
        limit: 1,
        message: `${usage.seats} seats in use (members and pending invitations); Free includes 1.`,
      },
      {
        key: 'maxProjects',
        used: usage.projectsUsed,
        limit: 1,
        message: `${usage.projectsUsed} projects; Free includes 1.`,
      },
      ...(usage.environmentsUsed > FREE_PLAN_LIMITS.maxEnvironments!
        ? [expect.objectContaining({ key: 'maxEnvironments', used: usage.environmentsUsed, limit: 2 })]
        : []),
    ]);
    expect(preview.lost).toEqual([
      { key: 'auditLog', message: 'The audit log: it is no longer shown.' },
      { key: 'variantTesting', message: 'Experiments: they can no longer be created or changed.' },
      { key: 'trial', message: 'The 12 days left in your trial: the trial ends now.' },
    ]);
    // Nothing changed.
    const after = await team.admin.call('GET', '/api/v1/initial');
    expect(after.json()).toMatchObject({ subscription: { inTrial: true, price: { productName: 'Team' } } });
  });

  it('says only the trial ends when buying the plan on trial', async () => {
    const preview = (
      await team.admin.call('GET', '/api/v1/billing/change-preview?price=local-team-year')
    ).json<PlanChangePreview>();
    expect(preview).toEqual({
      plan: 'Team',
      exceeded: [],
      lost: [{ key: 'trial', message: 'The 12 days left in your trial: the trial ends now.' }],
      // The local provider's checkout page says this itself before its Confirm.
      confirmsAtCheckout: true,
    });
  });

  it('refuses an unknown price, a missing one and other members', async () => {
    const unknown = await team.admin.call('GET', '/api/v1/billing/change-preview?price=gold');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({
      title: 'There is no plan with the price "gold".',
      code: 'not_found',
    });
    const missing = await team.admin.call('GET', '/api/v1/billing/change-preview');
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'invalid' });
    for (const member of [team.productionEditor, team.editor, team.readOnly]) {
      const res = await member.call('GET', '/api/v1/billing/change-preview?price=free');
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ title: BILLING_ADMIN_ONLY, code: 'forbidden' });
    }
  });
});
