import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Subscription } from '@vexil/core';
import { auditItems, subscriptions } from '../db/schema/index';
import { callerFor } from '../../test/api';
import { createHarness, type Harness, type TestUser } from '../../test/helpers';
import { runBillingCli } from './billing';

const DAY_MS = 24 * 60 * 60 * 1000;

let h: Harness;
let acme: TestUser;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  await h.database.reset();
  acme = await h.createOrganisation({ domain: 'acme', name: 'Acme' });
});

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runBillingCli(argv, {
    config: h.config,
    database: h.database,
    output: { out: (line) => out.push(line), err: (line) => err.push(line) },
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

async function subscription(): Promise<Subscription | null> {
  const call = callerFor(h.app, await h.login(acme));
  return (await call('GET', '/api/v1/initial')).json<{ subscription: Subscription | null }>().subscription;
}

describe('npm run billing -- set-plan', () => {
  it('puts an organisation on a plan of the catalogue, active, with its limits, and says so', async () => {
    const res = await run('set-plan', '--organisation', 'acme', '--plan', 'local-team');
    expect(res).toMatchObject({ code: 0, err: '' });
    expect(res.out).toContain('acme: Team (monthly, 1 seat(s)), active');
    expect(res.out).toContain('maxProjects: 10');
    expect(await subscription()).toMatchObject({
      status: 'active',
      inTrial: false,
      price: { productName: 'Team', amount: 2000 },
      limits: { maxProjects: 10, auditLog: true },
    });
    const [entry] = await h.database.db
      .select()
      .from(auditItems)
      .where(eq(auditItems.organisationId, acme.organisationId));
    expect(entry).toMatchObject({ title: 'Plan set to Team by an instance administrator', actorId: null });
  });

  it('starts a trial of n days, or ends it now with 0 (inactive)', async () => {
    await run('set-plan', '--organisation', 'acme', '--plan', 'team', '--trial-days', '5');
    expect(await subscription()).toMatchObject({ status: 'active', inTrial: true, daysUntilEndOfTrial: 5 });
    const ended = await run('set-plan', '--organisation', 'acme', '--plan', 'team', '--trial-days', '0');
    expect(ended.out).toContain('inactive');
    expect(await subscription()).toMatchObject({ status: 'inactive', inTrial: false });
  });

  it('marks a subscription inactive or active, and moves to the Free plan', async () => {
    await run(
      'set-plan',
      '--organisation',
      'acme',
      '--plan',
      'local-team-year',
      '--status',
      'inactive',
      '--seats',
      '7',
    );
    expect(await subscription()).toMatchObject({
      status: 'inactive',
      quantity: 7,
      price: { interval: 'year' },
    });
    await run('set-plan', '--organisation', 'ACME', '--plan', 'free', '--status', 'active');
    expect(await subscription()).toMatchObject({
      status: 'active',
      quantity: 7,
      price: { productName: 'Free', amount: 0 },
      limits: { maxOrganisationUsers: 1, maxProjects: 1, maxEnvironments: 2, auditLog: false },
    });
  });

  it('keeps the provider’s ids and the billing contact', async () => {
    await h.database.db.insert(subscriptions).values({
      organisationId: acme.organisationId,
      status: 'trialing',
      trialEnd: new Date(Date.now() + 3 * DAY_MS),
      externalCustomerId: 'cus_1',
      billingEmail: 'accounts@example.com',
    });
    await run('set-plan', '--organisation', 'acme', '--plan', 'team');
    const [row] = await h.database.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.organisationId, acme.organisationId));
    expect(row).toMatchObject({
      status: 'active',
      trialEnd: null,
      externalCustomerId: 'cus_1',
      billingEmail: 'accounts@example.com',
    });
  });

  it('explains mistakes with exit codes: 2 for usage, 1 for an unknown organisation or plan', async () => {
    expect(await run('set-plan', '--organisation', 'acme')).toMatchObject({
      code: 2,
      err: expect.stringContaining('set-plan needs --organisation <domain> and --plan <productId|free>.'),
    });
    expect(
      (await run('set-plan', '--organisation', 'acme', '--plan', 'team', '--status', 'paused')).code,
    ).toBe(2);
    expect(
      (await run('set-plan', '--organisation', 'acme', '--plan', 'team', '--trial-days', 'ten')).code,
    ).toBe(2);
    expect((await run('set-plan', '--organisation', 'acme', '--plan', 'team', '--colour', 'red')).code).toBe(
      2,
    );
    expect((await run('upgrade')).code).toBe(2);
    expect(await run('set-plan', '--organisation', 'nobody', '--plan', 'team')).toEqual({
      code: 1,
      out: '',
      err: 'No organisation "nobody"',
    });
    expect(await run('set-plan', '--organisation', 'acme', '--plan', 'gold')).toEqual({
      code: 1,
      out: '',
      err: 'There is no plan "gold" (plans: free, local-team).',
    });
    expect(await subscription()).toBeNull();
  });
});

describe('npm run billing -- show and plans', () => {
  it('shows the subscription and lists the plans', async () => {
    expect((await run('show', '--organisation', 'acme')).out).toBe(
      'acme: no subscription (no plan limits apply).',
    );
    await run('set-plan', '--organisation', 'acme', '--plan', 'team', '--trial-days', '14');
    expect((await run('show', '--organisation', 'acme')).out).toContain(
      'acme: Team (monthly, 1 seat(s)), in trial, 14 day(s) left',
    );
    expect((await run('plans')).out).toBe(
      'free: Free\nlocal-team: Team (local-team-month 2000 cents a seat a month, local-team-year 19200 cents a seat a year)',
    );
  });
});
