import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  FREE_PLAN_LIMITS,
  experimentStatisticsSchema,
  type Environment,
  type Experiment,
  type ExperimentStatistics,
  type Feature,
} from '@vexil/core';
import { experimentExposures } from '../../db/schema/index';
import { auditTrail, createTeam, subscribe, type Caller, type Team } from '../../../test/api';
import { createHarness, type Harness } from '../../../test/helpers';
import { saveControl, sdkFixture } from '../../../test/sdk';
import { EXPERIMENTS_NOT_ON_PLAN } from './experiments.service';

let h: Harness;
let team: Team;
let fixture: Awaited<ReturnType<typeof sdkFixture>>;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  await h.database.reset();
  team = await createTeam(h);
  fixture = await sdkFixture(team.admin.call);
});

function body(overrides: Record<string, unknown> = {}, environment: Environment = fixture.development) {
  return {
    projectKey: 'web',
    environmentKey: environment.key,
    name: 'Checkout button',
    description: 'Does the new button sell more?',
    goalKey: 'Purchase Made',
    featureId: fixture.checkout.id,
    control: 'off',
    variation: 'on',
    ...overrides,
  };
}

async function create(call: Caller, overrides: Record<string, unknown> = {}, environment?: Environment) {
  const res = await call('POST', '/api/v1/experiments/', body(overrides, environment));
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Experiment>();
}

async function put(call: Caller, experiment: Experiment, changes: Record<string, unknown>) {
  return call('PUT', '/api/v1/experiments/', {
    id: experiment.id,
    projectKey: experiment.projectKey,
    environmentKey: experiment.environmentKey,
    name: experiment.name,
    description: experiment.description,
    goalKey: experiment.goalKey,
    featureId: experiment.featureId,
    control: experiment.control,
    variation: experiment.variation,
    enabled: experiment.enabled,
    mode: experiment.mode,
    ...changes,
  });
}

/** Posts SDK events with the environment's server key; they are stored once this answers 200. */
async function events(rows: unknown[], environment: Environment = fixture.development) {
  await h.app.sdk.store.settled();
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/sdk/v1/events',
    headers: { authorization: `Bearer ${environment.apiKey}` },
    payload: rows as object,
  });
  expect(res.statusCode, res.body).toBe(200);
}

const shown = (user: string, variant: string, at?: string) => ({
  type: 'evaluate',
  featureKey: 'checkout',
  evaluatedVariant: variant,
  user: { id: user },
  ...(at ? { timestamp: at } : {}),
});
const goal = (user: string, extra: Record<string, unknown> = {}) => ({
  type: 'goal',
  goalKey: 'purchase-made',
  user: { id: user },
  ...extra,
});

async function statistics(call: Caller, id: string) {
  const res = await call('GET', `/api/v1/experiment-statistics/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return experimentStatisticsSchema.parse(res.json()) satisfies ExperimentStatistics;
}

describe('experiments API', () => {
  it('creates, lists, reads, updates and archives an experiment, audited', async () => {
    const created = await create(team.admin.call);
    expect(created).toMatchObject({
      name: 'Checkout button',
      goalKey: 'purchase-made',
      featureKey: 'checkout',
      environmentKey: 'development',
      projectKey: 'web',
      control: 'off',
      variation: 'on',
      enabled: false,
      startDate: null,
      endDate: null,
      mode: 'fixed',
      feature: { key: 'checkout', name: 'Checkout' },
    });
    const listed = await team.admin.call(
      'GET',
      '/api/v1/experiments/?projectKey=web&environmentKey=development',
    );
    expect(listed.json<Experiment[]>().map((e) => e.id)).toEqual([created.id]);
    // Another environment's list does not show it.
    const production = await team.admin.call(
      'GET',
      '/api/v1/experiments?projectKey=web&environmentKey=production',
    );
    expect(production.json()).toEqual([]);
    expect((await team.admin.call('GET', `/api/v1/experiments/${created.id}`)).json()).toEqual(created);

    const renamed = await put(team.admin.call, created, { name: 'Bigger button', mode: 'sequential' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json<Experiment>()).toMatchObject({ name: 'Bigger button', mode: 'sequential' });

    expect((await team.admin.call('DELETE', `/api/v1/experiments/${created.id}`)).statusCode).toBe(204);
    const after = await team.admin.call(
      'GET',
      '/api/v1/experiments/?projectKey=web&environmentKey=development',
    );
    expect(after.json()).toEqual([]);
    expect((await team.admin.call('GET', `/api/v1/experiments/${created.id}`)).statusCode).toBe(404);

    const titles = (await auditTrail(team.admin.call)).map((item) => item.title);
    expect(titles).toEqual(
      expect.arrayContaining([
        'Experiment Checkout button created in Development',
        'Experiment Bigger button updated in Development',
        'Experiment Bigger button archived in Development',
      ]),
    );
  });

  it('starts when enabled, finishes when disabled, and runs again when enabled again', async () => {
    const draft = await create(team.admin.call);
    const started = (await put(team.admin.call, draft, { enabled: true })).json<Experiment>();
    expect(started.startDate).not.toBeNull();
    expect(started.endDate).toBeNull();
    const finished = (await put(team.admin.call, started, { enabled: false })).json<Experiment>();
    expect(finished.startDate).toBe(started.startDate);
    expect(finished.endDate).not.toBeNull();
    const again = (await put(team.admin.call, finished, { enabled: true })).json<Experiment>();
    expect(again).toMatchObject({ startDate: started.startDate, endDate: null, enabled: true });
    const titles = (await auditTrail(team.admin.call)).map((item) => item.title);
    expect(titles).toEqual(
      expect.arrayContaining([
        'Experiment Checkout button started in Development',
        'Experiment Checkout button finished in Development',
        'Experiment Checkout button restarted in Development',
      ]),
    );
  });

  it('answers the form messages and checks the feature and its variants on the server', async () => {
    const empty = await team.admin.call('POST', '/api/v1/experiments/', {
      projectKey: 'web',
      environmentKey: 'development',
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json<{ errors: { field: string; message: string }[] }>().errors).toEqual(
      expect.arrayContaining([
        { field: 'name', message: 'Name is required' },
        { field: 'goalKey', message: 'Goal Key is required' },
        { field: 'featureId', message: 'Feature is required' },
      ]),
    );
    const same = await team.admin.call('POST', '/api/v1/experiments/', body({ variation: 'off' }));
    expect(same.json()).toMatchObject({
      errors: [
        { field: 'variation', message: 'The alternate variant must differ from the control variant.' },
      ],
    });
    const unknown = await team.admin.call('POST', '/api/v1/experiments/', body({ variation: 'blue' }));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({
      errors: [{ field: 'variation', message: '"blue" is not a variant of the feature Checkout.' }],
    });
    // Another organisation's feature is no feature here.
    const theirs = await sdkFixture(team.outsider.call);
    const foreign = await team.admin.call(
      'POST',
      '/api/v1/experiments/',
      body({ featureId: theirs.checkout.id }),
    );
    expect(foreign.json()).toMatchObject({
      errors: [{ field: 'featureId', message: 'Feature is required' }],
    });

    await create(team.admin.call);
    const twice = await team.admin.call('POST', '/api/v1/experiments/', body());
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toMatchObject({
      errors: [
        {
          field: 'name',
          message: 'An experiment named "Checkout button" already exists in this environment.',
        },
      ],
    });
  });

  it('keeps what an experiment measures once it has started', async () => {
    const started = await create(team.admin.call, { enabled: true });
    for (const [field, value] of [
      ['goalKey', 'signup'],
      ['control', 'on'],
      ['mode', 'sequential'],
    ] as const) {
      const res = await put(team.admin.call, started, {
        [field]: value,
        ...(field === 'control' ? { variation: 'off' } : {}),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ errors: { field: string; message: string }[] }>().errors[0]!.message).toMatch(
        /cannot change once it has started/,
      );
    }
    expect((await put(team.admin.call, started, { name: 'Renamed' })).statusCode).toBe(200);
  });

  it('follows the environment rights: read-only members read; production needs production rights', async () => {
    const inDevelopment = await create(team.admin.call);
    expect((await team.readOnly.call('GET', `/api/v1/experiments/${inDevelopment.id}`)).statusCode).toBe(200);
    const refused = await team.readOnly.call('POST', '/api/v1/experiments/', body({ name: 'Mine' }));
    expect(refused.statusCode).toBe(403);
    expect((await team.readOnly.call('DELETE', `/api/v1/experiments/${inDevelopment.id}`)).statusCode).toBe(
      403,
    );

    expect((await team.editor.call('POST', '/api/v1/experiments/', body({ name: 'Dev' }))).statusCode).toBe(
      201,
    );
    const production = await team.editor.call(
      'POST',
      '/api/v1/experiments/',
      body({ name: 'Prod' }, fixture.production),
    );
    expect(production.statusCode).toBe(403);
    expect(production.json()).toMatchObject({ code: 'production_rights_required' });
    const allowed = await team.productionEditor.call(
      'POST',
      '/api/v1/experiments/',
      body({ name: 'Prod' }, fixture.production),
    );
    expect(allowed.statusCode).toBe(201);

    // Another organisation sees none of it.
    expect((await team.outsider.call('GET', `/api/v1/experiments/${inDevelopment.id}`)).statusCode).toBe(404);
    expect(
      (await team.outsider.call('GET', `/api/v1/experiment-statistics/${inDevelopment.id}`)).statusCode,
    ).toBe(404);
  });

  it('is refused when the plan does not include experiments (variantTesting)', async () => {
    await subscribe(h, team.admin.organisationId, { ...FREE_PLAN_LIMITS, variantTesting: false });
    const res = await team.admin.call('POST', '/api/v1/experiments/', body());
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ title: EXPERIMENTS_NOT_ON_PLAN, code: 'plan_required' });
  });

  it("offers the project's goals: those SDKs reported and those experiments named", async () => {
    await create(team.admin.call);
    await events([goal('u1', { goalKey: 'signed-up' })]);
    const all = await team.admin.call('GET', '/api/v1/goals?projectKey=web');
    expect(all.json()).toEqual([
      { key: 'purchase-made', name: 'purchase-made' },
      { key: 'signed-up', name: 'signed-up' },
    ]);
    const some = await team.admin.call('GET', '/api/v1/goals?projectKey=web&query=sign');
    expect(some.json()).toEqual([{ key: 'signed-up', name: 'signed-up' }]);
    expect((await team.outsider.call('GET', '/api/v1/goals?projectKey=web')).statusCode).toBe(404);
  });
});

describe('counting', () => {
  it('counts each user once, in the variant of their first exposure, and a conversion once after exposure', async () => {
    const experiment = await create(team.admin.call, { enabled: true });
    await events([
      shown('ann', 'off'),
      shown('ann', 'off'),
      shown('bob', 'on'),
      shown('cat', 'on'),
      // Not a variant of the experiment: counts nothing.
      { ...shown('dan', 'off'), featureKey: 'another' },
    ]);
    await events([
      goal('ann', { value: 20 }),
      goal('ann', { value: 5 }),
      goal('bob'),
      // Never exposed: not a conversion.
      goal('eve'),
    ]);
    // Bob is later shown the other variant: still counted once, in "on", and said to have crossed.
    await events([shown('bob', 'off')]);

    const stats = await statistics(team.admin.call, experiment.id);
    expect(stats.variantResults).toEqual({
      off: { impressions: 1, goals: 1, conversionRate: 1, valueSum: 25 },
      on: { impressions: 2, goals: 1, conversionRate: 0.5, valueSum: 0 },
    });
    expect(stats.usersInBothVariants).toBe(1);
    expect(stats.validResult).toBe(false);
    expect(stats.invalidReasons.length).toBeGreaterThan(0);
    expect(stats.daily.at(-1)!.variants).toEqual({
      off: { impressions: 1, goals: 1 },
      on: { impressions: 2, goals: 1 },
    });
  });

  it('counts a goal only after the exposure, and only while the experiment runs', async () => {
    const draft = await create(team.admin.call);
    // Not started: nothing counts.
    await events([shown('early', 'on'), goal('early')]);
    const running = (await put(team.admin.call, draft, { enabled: true })).json<Experiment>();
    const later = new Date(Date.now() + 60_000).toISOString();
    const sooner = new Date(Date.now() + 30_000).toISOString();
    await events([shown('ann', 'on', later), goal('ann', { timestamp: sooner })]);
    const before = await statistics(team.admin.call, running.id);
    expect(before.variantResults.on).toMatchObject({ impressions: 1, goals: 0 });
    await events([goal('ann', { timestamp: new Date(Date.now() + 90_000).toISOString() })]);
    expect((await statistics(team.admin.call, running.id)).variantResults.on).toMatchObject({
      impressions: 1,
      goals: 1,
    });

    const finished = (await put(team.admin.call, running, { enabled: false })).json<Experiment>();
    await events([shown('zed', 'off')]);
    expect((await statistics(team.admin.call, finished.id)).variantResults.off).toMatchObject({
      impressions: 0,
    });
  });

  it("reads the browser SDK's evaluatedFeatures on goal rows as exposures", async () => {
    const experiment = await create(team.admin.call, { enabled: true });
    await h.app.sdk.store.settled();
    const res = await h.app.inject({
      method: 'POST',
      url: `/api/js/v1/event/${fixture.development.jsApiKey}`,
      payload: [
        {
          type: 'goal',
          goalKey: 'purchase-made',
          user: { id: 'web-1' },
          evaluatedFeatures: { checkout: 'on' },
        },
        { type: 'goal', goalKey: 'purchase-made', user: { id: 'web-2' }, evaluatedFeatures: ['odd'] },
      ],
    });
    expect(res.statusCode).toBe(200);
    const stats = await statistics(team.admin.call, experiment.id);
    expect(stats.variantResults.on).toMatchObject({ impressions: 1, goals: 1 });
    expect(stats.variantResults.off).toMatchObject({ impressions: 0, goals: 0 });
  });

  it('keeps experiments apart: another environment or organisation counts nothing here', async () => {
    const experiment = await create(team.admin.call, { enabled: true });
    await events([shown('p1', 'on')], fixture.production);
    const theirs = await sdkFixture(team.outsider.call);
    await events([shown('o1', 'on')], theirs.development);
    const rows = await h.database.db
      .select()
      .from(experimentExposures)
      .where(eq(experimentExposures.experimentId, experiment.id));
    expect(rows).toEqual([]);
  });

  it('checks the sample ratio against the split the targeting configures', async () => {
    const experiment = await create(team.admin.call, { enabled: true });
    const split = (off: number, on: number) =>
      saveControl(team.admin.call, fixture.checkout, fixture.development, {
        enabled: true,
        rules: [
          {
            defaultRule: true,
            audience: null,
            variantSplits: [
              { variantKey: 'off', split: off },
              { variantKey: 'on', split: on },
            ],
          },
        ] as Feature['controls'][string]['rules'],
      });
    await split(70, 30);
    const rows: unknown[] = [];
    for (let i = 0; i < 700; i++) rows.push(shown(`c${i}`, 'off'));
    for (let i = 0; i < 300; i++) rows.push(shown(`v${i}`, 'on'));
    await events(rows);
    const asConfigured = await statistics(team.admin.call, experiment.id);
    expect(asConfigured.sampleRatio).toMatchObject({ expectedVariationShare: 0.3, flagged: false });
    // The same users against an even split: 700 against 300 is not chance.
    await split(50, 50);
    const even = await statistics(team.admin.call, experiment.id);
    expect(even.sampleRatio).toMatchObject({ expectedVariationShare: 0.5, flagged: true });
    expect(even.sampleRatio.message).toBeTruthy();
  });

  it('finds the test vector: 1000/100 against 1000/130 is a winner for the alternate at z ≈ 2.10', async () => {
    const experiment = await create(team.admin.call, { enabled: true });
    const rows: unknown[] = [];
    for (let i = 0; i < 1000; i++) rows.push(shown(`c${i}`, 'off'), shown(`v${i}`, 'on'));
    await events(rows);
    const goals: unknown[] = [];
    for (let i = 0; i < 100; i++) goals.push(goal(`c${i}`));
    for (let i = 0; i < 130; i++) goals.push(goal(`v${i}`));
    await events(goals);
    const stats = await statistics(team.admin.call, experiment.id);
    expect(stats.zscore).toBeCloseTo(2.1027, 3);
    expect(stats.pvalue).toBeCloseTo(0.0355, 3);
    expect(stats).toMatchObject({ validResult: true, winningVariation: 'on', invalidReasons: [] });
    expect(stats.sampleRatio.flagged).toBe(false);
    expect(stats.difference!.estimate).toBeCloseTo(0.03, 10);
  });
});
