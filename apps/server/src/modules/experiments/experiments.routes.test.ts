import { describe, expect, it } from 'vitest';
import { FREE_PLAN_LIMITS, type Experiment } from '@vexil/core';
import { auditTrail, subscribe } from '../../../test/api';
import { sdkFixture } from '../../../test/sdk';
import { EXPERIMENTS_NOT_ON_PLAN } from './experiments.service';
import {
  setUpExperimentRoutes,
  h,
  team,
  fixture,
  body,
  create,
  put,
  events,
  goal,
} from './experiments.routes.fixture';

setUpExperimentRoutes();

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
