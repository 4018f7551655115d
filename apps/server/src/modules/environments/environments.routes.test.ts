import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  JS_SDK_KEY_PATTERN,
  MASKED_SERVER_SDK_KEY,
  SERVER_SDK_KEY_PATTERN,
  type Environment,
  type Project,
} from '@vexil/core';
import { featureControls, type ControlRule } from '../../db/schema/index';
import { auditTrail, callerFor, subscribe } from '../../../test/api';
import { createHarness } from '../../../test/helpers';
import {
  setUpEnvironmentRoutes,
  h,
  team,
  staging,
  started,
  createEnvironment,
  addFeature,
  controlsOf,
} from './environments.routes.fixture';

setUpEnvironmentRoutes();

describe('POST /api/v1/environments/', () => {
  it('creates an environment with the default colour and fresh SDK keys', async () => {
    const created = await createEnvironment();
    expect(created).toMatchObject({
      name: 'Staging',
      key: 'staging',
      url: '',
      color: '#1273de',
      local: false,
      production: false,
      isProduction: false,
      projectKey: 'web',
    });
    expect(created.apiKey).toMatch(SERVER_SDK_KEY_PATTERN);
    expect(created.jsApiKey).toMatch(JS_SDK_KEY_PATTERN);
    const again = await team.admin.call('GET', '/api/v1/projects/web');
    expect(again.json<Project>().environments.map((e) => e.key)).toEqual([
      'development',
      'staging',
      'production',
    ]);
  });

  it('normalises the key: lowercase, characters outside [a-z0-9_] become hyphens', async () => {
    const created = await createEnvironment({ ...staging, key: 'QA Env #2' });
    expect(created.key).toBe('qa-env--2');
    // An accented letter is such a character: it is not folded to its plain letter.
    const accented = await createEnvironment({ ...staging, name: 'Développement', key: 'Développement' });
    expect(accented.key).toBe('d-veloppement');
    expect((await team.admin.call('GET', '/api/v1/environments/web/d-veloppement')).statusCode).toBe(200);
  });

  it('keeps url, colour, local and production as given', async () => {
    const created = await createEnvironment({
      ...staging,
      url: 'https://staging.example.com',
      color: '#00AA55',
      local: true,
      production: true,
    });
    expect(created).toMatchObject({
      url: 'https://staging.example.com',
      color: '#00AA55',
      local: true,
      production: true,
      isProduction: true,
    });
  });

  it('answers field messages for a missing name and key and a bad colour', async () => {
    const res = await team.admin.call('POST', '/api/v1/environments/', {
      projectKey: 'web',
      name: '',
      key: '',
      color: 'red',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ errors: unknown[] }>().errors).toEqual(
      expect.arrayContaining([
        { field: 'name', message: 'Name is required' },
        { field: 'key', message: 'Key is required' },
        { field: 'color', message: 'Color must be a hex colour such as #1273de.' },
      ]),
    );
  });

  it('refuses a colour that is not hex with one message on color, on create and on update', async () => {
    for (const color of ['#12345678', 'blue', '#12g', '#1234']) {
      const res = await team.admin.call('POST', '/api/v1/environments/', { ...staging, color });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ errors: unknown[] }>().errors).toEqual([
        { field: 'color', message: 'Color must be a hex colour such as #1273de.' },
      ]);
    }
    const created = await team.admin.call('POST', '/api/v1/environments/', staging);
    expect(created.statusCode).toBe(201);
    const environment = created.json<{ id: string; color: string }>();
    const update = await team.admin.call('PUT', '/api/v1/environments/', {
      ...staging,
      id: environment.id,
      color: 'not a colour',
    });
    expect(update.statusCode).toBe(400);
    expect(update.json<{ errors: unknown[] }>().errors).toEqual([
      { field: 'color', message: 'Color must be a hex colour such as #1273de.' },
    ]);
  });

  it('rejects a key the project already has', async () => {
    const res = await team.admin.call('POST', '/api/v1/environments/', { ...staging, key: 'Production' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      errors: [
        { field: 'key', message: 'An environment with the key "production" already exists in this project.' },
      ],
    });
  });

  it('answers 404 for a project that is not the organisation’s', async () => {
    const res = await team.outsider.call('POST', '/api/v1/environments/', staging);
    expect(res.statusCode).toBe(404);
  });

  it('gives the new environment an off control for every feature of the project', async () => {
    await addFeature('checkout');
    await addFeature('search');
    const created = await createEnvironment();
    const controls = await controlsOf(created.id);
    expect(controls).toHaveLength(2);
    for (const control of controls) {
      expect(control).toMatchObject({
        enabled: false,
        offVariantKey: 'off',
        rules: [{ defaultRule: true, audience: null, variantSplits: [{ variantKey: 'on', split: 100 }] }],
      });
    }
  });

  it('copies the targeting of another environment when asked to', async () => {
    const feature = await addFeature('checkout');
    const source = await createEnvironment({ ...staging, key: 'qa', name: 'QA' });
    const rules: ControlRule[] = [
      {
        defaultRule: false,
        audience: { conditions: [{ target: 'tier', operator: 'equals', values: ['gold'] }] },
        variantSplits: [{ variantKey: 'on', split: 100 }],
      },
      { defaultRule: true, audience: null, variantSplits: [{ variantKey: 'off', split: 100 }] },
    ];
    await h.database.db
      .update(featureControls)
      .set({ enabled: true, rules })
      .where(and(eq(featureControls.environmentId, source.id), eq(featureControls.featureId, feature.id)));
    const copy = await createEnvironment({ ...staging, cloneEnvironmentId: source.id });
    const [control] = await controlsOf(copy.id);
    expect(control).toMatchObject({ enabled: true, rules, available: false });
  });

  it('lets only organisation admins create environments', async () => {
    for (const member of [team.productionEditor, team.editor, team.readOnly]) {
      const res = await member.call('POST', '/api/v1/environments/', staging);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ title: 'Only organisation admins may manage projects.' });
    }
  });

  it('counts every environment of the organisation against maxEnvironments', async () => {
    await subscribe(h, team.admin.organisationId, { maxEnvironments: 3 });
    await createEnvironment();
    const res = await team.admin.call('POST', '/api/v1/environments/', { ...staging, key: 'qa', name: 'QA' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ title: 'Only 3 environment(s) allowed.' });
  });

  it('ignores plan limits while the billing flag is off', async () => {
    const unbilled = await createHarness({ VEXIL_UI_FLAGS: 'billing=off' });
    try {
      const admin = await unbilled.createOrganisation();
      const call = callerFor(unbilled.app, await unbilled.login(admin));
      await subscribe(unbilled, admin.organisationId, { maxProjects: 1, maxEnvironments: 1 });
      expect((await call('POST', '/api/v1/projects/', { name: 'One', key: 'one' })).statusCode).toBe(201);
      expect((await call('POST', '/api/v1/projects/', { name: 'Two', key: 'two' })).statusCode).toBe(201);
      expect(
        (await call('POST', '/api/v1/environments/', { ...staging, projectKey: 'one' })).statusCode,
      ).toBe(201);
    } finally {
      await unbilled.close();
    }
  });

  it('audits the creation', async () => {
    await createEnvironment({ ...staging, production: true });
    const [item] = await auditTrail(team.admin.call);
    expect(item).toMatchObject({ title: 'Environment Staging created in Web shop' });
    expect(item!.description).toContain('created the environment **Staging** (`staging`, production)');
  });
});

describe("the order of a project's environments", () => {
  it('is non-production first, then oldest first, in every list the dashboard reads', async () => {
    await createEnvironment({ ...staging, name: 'Live', key: 'live', production: true });
    await createEnvironment(staging);
    // A production tag protects an environment like the marker does, so it sorts with production.
    await createEnvironment({ ...staging, name: 'EU', key: 'eu', tags: ['Production'] });
    const qa = await createEnvironment({ ...staging, name: 'QA', key: 'qa' });
    const expected = ['development', 'staging', 'qa', 'production', 'live', 'eu'];

    const keysOf = (environments: { key: string }[]) => environments.map((e) => e.key);
    const one = await team.readOnly.call('GET', '/api/v1/projects/web');
    expect(keysOf(one.json<Project>().environments)).toEqual(expected);
    const list = await team.readOnly.call('GET', '/api/v1/projects');
    expect(keysOf(list.json<Project[]>().find((p) => p.key === 'web')!.environments)).toEqual(expected);
    const initial = await team.readOnly.call('GET', '/api/v1/initial');
    const payload = initial.json<{ projects: Project[] }>();
    expect(keysOf(payload.projects.find((p) => p.key === 'web')!.environments)).toEqual(expected);

    // Marking an environment production moves it among the production ones.
    const update = { ...staging, id: qa.id, name: 'QA', key: 'qa', production: true };
    expect((await team.admin.call('PUT', '/api/v1/environments/', update)).statusCode).toBe(200);
    const after = await team.readOnly.call('GET', '/api/v1/projects/web');
    expect(keysOf(after.json<Project>().environments)).toEqual([
      'development',
      'staging',
      'production',
      'live',
      'eu',
      'qa',
    ]);
  });
});

describe('GET /api/v1/environments/{projectKey}/{environmentKey}', () => {
  it('returns the environment with its keys by key or by id', async () => {
    const production = started('production');
    const byKey = await team.productionEditor.call('GET', '/api/v1/environments/web/production');
    expect(byKey.statusCode).toBe(200);
    expect(byKey.json<Environment>()).toEqual(production);
    const byId = await team.productionEditor.call('GET', `/api/v1/environments/web/${production.id}`);
    expect(byId.json<Environment>()).toEqual(production);
    // A read-only user reads it too, with the server key masked.
    const readOnly = await team.readOnly.call('GET', `/api/v1/environments/web/${production.id}`);
    expect(readOnly.json<Environment>()).toEqual({ ...production, apiKey: MASKED_SERVER_SDK_KEY });
  });

  it('answers 404 for unknown keys and for another organisation', async () => {
    expect((await team.admin.call('GET', '/api/v1/environments/web/nope')).statusCode).toBe(404);
    expect((await team.admin.call('GET', '/api/v1/environments/nope/production')).statusCode).toBe(404);
    expect((await team.outsider.call('GET', '/api/v1/environments/web/production')).statusCode).toBe(404);
  });
});
