/**
 * The subscription's state (docs/product.md §4): a new organisation's trial with its days left, the
 * trial's end without a purchase, and the inactive state refusing every change while SDKs keep being
 * answered.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Environment, Experiment, Feature, Project, Segment, Subscription } from '@vexil/core';
import { subscriptions } from '../../db/schema/index';
import { callerFor, createTeam, type Caller, type Team } from '../../../test/api';
import { fingerprint } from '../../../test/fingerprint';
import { createHarness, randomIp, seedDemo, type Harness } from '../../../test/helpers';
import { sdkFixture } from '../../../test/sdk';
import { startTestMailServer, type TestMailServer } from '../../../test/smtp-server';
import { INACTIVE_ACCOUNT } from './billing.service';

const DAY_MS = 24 * 60 * 60 * 1000;

async function subscriptionOf(call: Caller): Promise<Subscription | null> {
  const res = await call('GET', '/api/v1/initial');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ subscription: Subscription | null }>().subscription;
}

describe('the trial a sign-up starts', () => {
  let mail: TestMailServer;
  let clock: Date;
  let h: Harness;

  beforeAll(async () => {
    mail = await startTestMailServer();
  });
  afterAll(async () => {
    await mail.close();
  });
  beforeEach(() => {
    clock = new Date('2026-11-10T09:00:00Z');
  });
  afterEach(async () => {
    await h.app.services.signup.mailsSettled();
    await h.close();
  });

  async function start(env: Record<string, string> = {}) {
    h = await createHarness({ SMTP_URL: mail.url, ...env }, { now: () => clock });
  }

  /** The sign-up wizard through its endpoints; answers a caller signed in as the new admin. */
  async function signUp(): Promise<{ call: () => Promise<Caller>; domain: string }> {
    const email = `founder-${randomBytes(4).toString('hex')}@example.com`;
    const seen = mail.received.length;
    const post = (url: string, body: object) =>
      h.app.inject({
        method: 'POST',
        url: `/api/v1/signup/${url}`,
        remoteAddress: randomIp(),
        payload: body,
      });
    const { once } = (await post('registeremail', { email, beta: false })).json<{ once: string }>();
    let pin: string | undefined;
    for (let count = seen + 1; !pin; count++) {
      const found = (await mail.waitFor(count)).slice(seen).find((m) => m.to[0] === email);
      pin = found ? /^(\d{6})$/m.exec(found.message.text ?? '')?.[1] : undefined;
    }
    expect((await post('validatepin', { email, once, pin })).statusCode).toBe(204);
    const domain = `trial-${randomBytes(3).toString('hex')}`;
    const password = 'long-enough-1!';
    const created = await post('createaccount', {
      email,
      once,
      pin,
      firstName: 'Ada',
      lastName: 'Lovelace',
      organisationName: 'Engines',
      organisationDomain: domain,
      password,
      confirmPassword: password,
    });
    expect(created.statusCode, created.body).toBe(200);
    // Signs in afresh each time: the clock moves by days between calls.
    const call = async () => {
      const login = await h.app.inject({
        method: 'POST',
        url: '/api/authenticate',
        remoteAddress: randomIp(),
        payload: { username: email, password, domain, rememberMe: false },
      });
      expect(login.statusCode, login.body).toBe(200);
      return callerFor(h.app, login.json<{ id_token: string }>().id_token);
    };
    return { call, domain };
  }

  it('is a trial of the paid plan for BILLING_TRIAL_DAYS with its limits, its days counting down, inactive at its end', async () => {
    await start();
    const { call } = await signUp();
    expect(await subscriptionOf(await call())).toMatchObject({
      status: 'active',
      inTrial: true,
      daysUntilEndOfTrial: 14,
      quantity: 1,
      price: { productName: 'Team', interval: 'month', amount: 2000, currency: 'usd' },
      limits: { maxProjects: 10, maxEnvironments: 50, auditLog: true, variantTesting: true },
    });

    clock = new Date(clock.getTime() + 13.5 * DAY_MS);
    expect(await subscriptionOf(await call())).toMatchObject({ inTrial: true, daysUntilEndOfTrial: 1 });

    clock = new Date(clock.getTime() + 0.5 * DAY_MS);
    const ended = await call();
    expect(await subscriptionOf(ended)).toMatchObject({
      status: 'inactive',
      inTrial: false,
      daysUntilEndOfTrial: null,
    });
    const refused = await ended('POST', '/api/v1/projects/', { name: 'Web', key: 'web' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ title: INACTIVE_ACCOUNT, code: 'subscription_inactive' });

    // Buying the plan on the local checkout page makes it active again.
    const bought = await ended('POST', '/api/v1/billing/local/subscribe', { priceId: 'local-team-month' });
    expect(bought.statusCode, bought.body).toBe(200);
    expect(await subscriptionOf(ended)).toMatchObject({ status: 'active', inTrial: false });
    expect((await ended('POST', '/api/v1/projects/', { name: 'Web', key: 'web' })).statusCode).toBe(201);
  });

  it('lasts BILLING_TRIAL_DAYS; with 0 the organisation starts on the Free plan', async () => {
    await start({ BILLING_TRIAL_DAYS: '30' });
    expect(await subscriptionOf(await (await signUp()).call())).toMatchObject({ daysUntilEndOfTrial: 30 });
    await h.app.services.signup.mailsSettled();
    await h.close();

    await start({ BILLING_TRIAL_DAYS: '0' });
    const free = await subscriptionOf(await (await signUp()).call());
    expect(free).toMatchObject({
      status: 'active',
      inTrial: false,
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

  it('leaves the demo organisation without a subscription: unlimited', async () => {
    await start();
    await seedDemo(h, 'demo-password');
    const login = await h.app.inject({
      method: 'POST',
      url: '/api/authenticate',
      remoteAddress: randomIp(),
      payload: { username: 'admin@example.com', password: 'demo-password', domain: 'demo' },
    });
    expect(await subscriptionOf(callerFor(h.app, login.json<{ id_token: string }>().id_token))).toBeNull();
  });
});

describe('an inactive subscription', () => {
  let h: Harness;
  let team: Team;
  let project: Project;
  let development: Environment;
  let checkout: Feature;
  let segment: Segment;
  let experiment: Experiment;

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
    const fixture = await sdkFixture(team.admin.call);
    ({ project, development, checkout } = fixture);
    segment = (
      await team.admin.call('POST', '/api/v2/segments/', {
        projectKey: 'web',
        environmentKey: 'development',
        key: 'vips',
        name: 'VIPs',
      })
    ).json<Segment>();
    experiment = (
      await team.admin.call('POST', '/api/v1/experiments/', {
        projectKey: 'web',
        environmentKey: 'development',
        name: 'Checkout button',
        goalKey: 'purchase',
        featureId: checkout.id,
        control: 'off',
        variation: 'on',
      })
    ).json<Experiment>();
    await h.app.sdk.store.settled();
  });

  /** Every dashboard write that changes features, targeting, segments, experiments, projects or environments. */
  function writes(): [string, () => Promise<{ statusCode: number; json: () => unknown; body: string }>][] {
    const call = team.admin.call;
    const control = checkout.controls.development!;
    return [
      ['create a project', () => call('POST', '/api/v1/projects/', { name: 'App', key: 'app' })],
      [
        'rename a project',
        () => call('PUT', '/api/v1/projects/', { id: project.id, name: 'Renamed', key: 'web' }),
      ],
      ['delete a project', () => call('DELETE', `/api/v1/projects/${project.id}`)],
      [
        'create an environment',
        () =>
          call('POST', '/api/v1/environments/', {
            projectKey: 'web',
            name: 'QA',
            key: 'qa',
            color: '#112233',
          }),
      ],
      [
        'update an environment',
        () =>
          call('PUT', '/api/v1/environments/', {
            id: development.id,
            projectKey: 'web',
            name: 'Dev',
            key: 'development',
            color: '#112233',
          }),
      ],
      ['delete an environment', () => call('DELETE', `/api/v1/environments/${development.id}`)],
      ['create a feature', () => call('POST', '/api/v1/projects/web/features', { name: 'New', key: 'new' })],
      [
        'update a feature',
        () =>
          call('PUT', '/api/v1/projects/web/features', {
            id: checkout.id,
            name: 'Renamed',
            key: 'checkout',
            variants: checkout.variants,
          }),
      ],
      ['delete a feature', () => call('DELETE', `/api/v1/project/web/features/${checkout.id}/`)],
      [
        'link an issue',
        () => call('PUT', '/api/v1/features/link', { featureId: checkout.id, jiraIssueKey: 'VX-1' }),
      ],
      [
        'change targeting',
        () =>
          call('PUT', '/api/v1/feature-controls/', {
            id: control.id,
            enabled: true,
            offVariantKey: control.offVariantKey,
            rules: control.rules,
          }),
      ],
      [
        'switch a feature on',
        () => call('PUT', `/api/v1/feature-controls/${control.id}/enabled`, { enabled: true }),
      ],
      [
        'create a segment',
        () =>
          call('POST', '/api/v2/segments/', {
            projectKey: 'web',
            environmentKey: 'development',
            key: 'new',
            name: 'New',
          }),
      ],
      [
        'update a segment',
        () =>
          call('PUT', '/api/v2/segments/', {
            id: segment.id,
            projectKey: 'web',
            environmentKey: 'development',
            key: 'vips',
            name: 'Very',
          }),
      ],
      ['delete a segment', () => call('DELETE', `/api/v2/segments/${segment.id}`)],
      [
        'create an experiment',
        () =>
          call('POST', '/api/v1/experiments/', {
            projectKey: 'web',
            environmentKey: 'development',
            name: 'Another',
            goalKey: 'purchase',
            featureId: checkout.id,
            control: 'off',
            variation: 'on',
          }),
      ],
      [
        'update an experiment',
        () =>
          call('PUT', '/api/v1/experiments/', {
            id: experiment.id,
            projectKey: 'web',
            environmentKey: 'development',
            name: 'Renamed',
            goalKey: 'purchase',
            featureId: checkout.id,
            control: 'off',
            variation: 'on',
          }),
      ],
      ['archive an experiment', () => call('DELETE', `/api/v1/experiments/${experiment.id}`)],
      [
        'declare a target',
        () => call('POST', '/api/v1/projects/web/targets', { key: 'tier', name: 'Tier', type: 'string' }),
      ],
    ];
  }

  const CAUSES: [string, Partial<typeof subscriptions.$inferInsert>][] = [
    ['the trial ended without a purchase', { status: 'trialing', trialEnd: new Date(Date.now() - 60_000) }],
    ['an instance administrator made it inactive', { status: 'inactive' }],
    ['the provider canceled it', { status: 'canceled' }],
    ['the provider reports it unpaid', { status: 'unpaid' }],
    ['the provider paused it', { status: 'paused' }],
  ];

  it.each(CAUSES)('when %s: every change is refused with `subscription_inactive`', async (_cause, state) => {
    await h.database.db
      .insert(subscriptions)
      .values({ organisationId: team.admin.organisationId, status: 'active', ...state });
    expect(await subscriptionOf(team.admin.call)).toMatchObject({ status: 'inactive', inTrial: false });
    const before = await fingerprint(h.database.db, team.admin.organisationId);
    for (const [what, write] of writes()) {
      const res = await write();
      expect(res.statusCode, `${what}: ${res.body}`).toBe(403);
      expect(res.json(), what).toEqual({ title: INACTIVE_ACCOUNT, code: 'subscription_inactive' });
    }
    expect(await fingerprint(h.database.db, team.admin.organisationId)).toEqual(before);
  });

  it('keeps SDKs answered: features, events and registration', async () => {
    await h.database.db.insert(subscriptions).values({
      organisationId: team.admin.organisationId,
      status: 'trialing',
      trialEnd: new Date(Date.now() - 1),
    });
    const sdk = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
      h.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${development.apiKey}`, 'content-type': 'application/json' },
        ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
      });
    const features = await sdk('GET', '/api/sdk/v1/features');
    expect(features.statusCode).toBe(200);
    expect(Object.keys(features.json())).toEqual(['checkout']);
    const events = await sdk('POST', '/api/sdk/v1/events', [
      { featureKey: 'checkout', evaluatedVariant: 'off', expectedVariant: 'off', user: 'user-1' },
    ]);
    expect(events.statusCode).toBe(200);
    await h.app.sdk.ingestion.flush();
    // Registration answers 200; declared features become available but none is created meanwhile.
    const registered = await sdk('PUT', '/api/sdk/v1/register', [{ key: 'checkout' }, { key: 'brand-new' }]);
    expect(registered.statusCode).toBe(200);
    expect((await team.admin.call('GET', '/api/v1/projects/web/features/brand-new')).statusCode).toBe(404);
    const read = (await team.admin.call('GET', '/api/v1/projects/web/features/checkout')).json<Feature>();
    expect(read.controls.development).toMatchObject({
      available: true,
      statistics: { impressions: { today: 1 } },
    });
    const js = await h.app.inject({
      method: 'GET',
      url: `/api/js/v1/evaluate/${development.jsApiKey}/user/${Buffer.from('{"id":"u"}').toString('base64')}`,
    });
    expect(js.statusCode).toBe(200);
  });

  it('does not refuse anything while the billing flag is off', async () => {
    const off = await createHarness({ VEXIL_UI_FLAGS: 'billing=off' });
    try {
      const offTeam = await createTeam(off);
      await off.database.db
        .insert(subscriptions)
        .values({ organisationId: offTeam.admin.organisationId, status: 'inactive' });
      expect(await subscriptionOf(offTeam.admin.call)).toBeNull();
      const res = await offTeam.admin.call('POST', '/api/v1/projects/', { name: 'Web', key: 'web' });
      expect(res.statusCode).toBe(201);
    } finally {
      await off.close();
    }
  });
});
