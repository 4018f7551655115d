import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  JS_SDK_KEY_PATTERN,
  MASKED_SERVER_SDK_KEY,
  SERVER_SDK_KEY_PATTERN,
  type Environment,
  type Project,
} from '@vexil/core';
import { environments, featureControls, features, variants, type ControlRule } from '../../db/schema/index';
import { auditTrail, callerFor, createTeam, subscribe, type Team } from '../../../test/api';
import { createHarness, type Harness } from '../../../test/helpers';

let h: Harness;
let team: Team;
let project: Project;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  await h.database.reset();
  team = await createTeam(h);
  const res = await team.admin.call('POST', '/api/v1/projects/', { name: 'Web shop', key: 'web' });
  project = res.json<Project>();
});

const staging = { projectKey: 'web', name: 'Staging', key: 'staging' };

/** One of the environments the project started with. */
function started(key: 'production' | 'development'): Environment {
  return project.environments.find((e) => e.key === key)!;
}

async function createEnvironment(body: Record<string, unknown> = staging): Promise<Environment> {
  const res = await team.admin.call('POST', '/api/v1/environments/', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Environment>();
}

/** A feature with variants on/off in the project, the way the features API will create it. */
async function addFeature(key: string) {
  const db = h.database.db;
  const organisationId = team.admin.organisationId;
  const [feature] = await db
    .insert(features)
    .values({ organisationId, projectId: project.id, key, name: key })
    .returning();
  await db.insert(variants).values([
    { organisationId, featureId: feature!.id, key: 'on', name: 'On', position: 0 },
    { organisationId, featureId: feature!.id, key: 'off', name: 'Off', position: 1 },
  ]);
  return feature!;
}

async function controlsOf(environmentId: string) {
  return h.database.db.select().from(featureControls).where(eq(featureControls.environmentId, environmentId));
}

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

describe('PUT /api/v1/environments/', () => {
  it('updates name, url, colour, local and production, and lists the changes in the audit log', async () => {
    const created = await createEnvironment();
    const res = await team.admin.call('PUT', '/api/v1/environments/', {
      ...staging,
      id: created.id,
      name: 'Pre-production',
      url: 'https://pre.example.com',
      color: '#ff0000',
      local: true,
      production: false,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<Environment>()).toMatchObject({
      id: created.id,
      key: 'staging',
      name: 'Pre-production',
      url: 'https://pre.example.com',
      color: '#ff0000',
      local: true,
      apiKey: created.apiKey,
    });
    const [item] = await auditTrail(team.admin.call);
    expect(item!.description).toContain('- name: `Staging` → `Pre-production`');
    expect(item!.description).toContain('- colour: `#1273de` → `#ff0000`');
    expect(item!.description).toContain('- local: `false` → `true`');
  });

  it('refuses to change the key or move the environment to another project', async () => {
    const created = await createEnvironment();
    const rekey = await team.admin.call('PUT', '/api/v1/environments/', {
      ...staging,
      id: created.id,
      key: 'qa',
    });
    expect(rekey.statusCode).toBe(400);
    expect(rekey.json()).toMatchObject({
      errors: [{ field: 'key', message: 'The key of an environment cannot be changed.' }],
    });
    await team.admin.call('POST', '/api/v1/projects/', { name: 'Other', key: 'oth' });
    const move = await team.admin.call('PUT', '/api/v1/environments/', {
      ...staging,
      id: created.id,
      projectKey: 'oth',
    });
    expect(move.statusCode).toBe(400);
  });

  it('is for organisation admins of the same organisation only', async () => {
    const created = await createEnvironment();
    const body = { ...staging, id: created.id, name: 'Hijacked' };
    for (const member of [team.productionEditor, team.editor, team.readOnly]) {
      expect((await member.call('PUT', '/api/v1/environments/', body)).statusCode).toBe(403);
    }
    expect((await team.outsider.call('PUT', '/api/v1/environments/', body)).statusCode).toBe(404);
    expect((await team.admin.call('GET', '/api/v1/environments/web/staging')).json<Environment>().name).toBe(
      'Staging',
    );
  });
});

describe('DELETE /api/v1/environments/{id}', () => {
  it('archives the environment: gone from the project, the initial payload and its SDK keys', async () => {
    const created = await createEnvironment();
    const res = await team.admin.call('DELETE', `/api/v1/environments/${created.id}`);
    expect(res.statusCode).toBe(204);
    const after = await team.admin.call('GET', '/api/v1/projects/web');
    expect(after.json<Project>().environments.map((e) => e.key)).toEqual(['development', 'production']);
    expect((await team.admin.call('GET', '/api/v1/environments/web/staging')).statusCode).toBe(404);
    const [row] = await h.database.db.select().from(environments).where(eq(environments.id, created.id));
    expect(row).toMatchObject({ archived: true, serverApiKey: created.apiKey });
    const [item] = await auditTrail(team.admin.call);
    expect(item).toMatchObject({ title: 'Environment Staging deleted from Web shop' });
    // The key can be used again.
    expect((await team.admin.call('POST', '/api/v1/environments/', staging)).statusCode).toBe(201);
  });

  it('refuses to delete the last environment of a project', async () => {
    const [production, development] = [started('production'), started('development')];
    expect((await team.admin.call('DELETE', `/api/v1/environments/${development.id}`)).statusCode).toBe(204);
    const res = await team.admin.call('DELETE', `/api/v1/environments/${production.id}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ title: 'You must have at least one environment.' });
  });

  it('is for organisation admins of the same organisation only', async () => {
    const created = await createEnvironment();
    for (const member of [team.productionEditor, team.editor, team.readOnly, team.outsider]) {
      const res = await member.call('DELETE', `/api/v1/environments/${created.id}`);
      expect(res.statusCode).toBe(member === team.outsider ? 404 : 403);
    }
    expect((await team.admin.call('GET', '/api/v1/environments/web/staging')).statusCode).toBe(200);
  });
});

describe('POST /api/v1/environments/{id}/keys/{kind}/rotate', () => {
  it('replaces the server key only, and the old key is no longer the environment’s', async () => {
    const production = started('production');
    const res = await team.admin.call('POST', `/api/v1/environments/${production.id}/keys/server/rotate`);
    expect(res.statusCode).toBe(200);
    const rotated = res.json<Environment>();
    expect(rotated.apiKey).toMatch(SERVER_SDK_KEY_PATTERN);
    expect(rotated.apiKey).not.toBe(production.apiKey);
    expect(rotated.jsApiKey).toBe(production.jsApiKey);
    const stored = await h.database.db
      .select({ id: environments.id })
      .from(environments)
      .where(eq(environments.serverApiKey, production.apiKey));
    expect(stored).toEqual([]);
    const [item] = await auditTrail(team.admin.call);
    expect(item!.title).toBe('The server SDK key of Production rotated');
    expect(item!.description).not.toContain(rotated.apiKey);
    expect(item!.description).not.toContain(production.apiKey);
  });

  it('replaces the JS client key', async () => {
    const production = started('production');
    const res = await team.admin.call('POST', `/api/v1/environments/${production.id}/keys/js/rotate`);
    expect(res.json<Environment>().jsApiKey).not.toBe(production.jsApiKey);
    expect(res.json<Environment>().apiKey).toBe(production.apiKey);
  });

  it('is for organisation admins of the same organisation only', async () => {
    const production = started('production');
    for (const member of [team.productionEditor, team.editor, team.readOnly, team.outsider]) {
      const res = await member.call('POST', `/api/v1/environments/${production.id}/keys/server/rotate`);
      expect(res.statusCode).toBe(member === team.outsider ? 404 : 403);
    }
    const after = await team.admin.call('GET', '/api/v1/environments/web/production');
    expect(after.json<Environment>().apiKey).toBe(production.apiKey);
  });

  it('rejects an unknown key kind', async () => {
    const production = started('production');
    const res = await team.admin.call('POST', `/api/v1/environments/${production.id}/keys/admin/rotate`);
    expect(res.statusCode).toBe(400);
  });
});

describe('change events', () => {
  it('are published after each change commits, and not for a refused change', async () => {
    const seen: string[] = [];
    const unsubscribe = h.app.services.events.subscribe((event) => seen.push(`${event.type}`));
    try {
      const created = await createEnvironment();
      await team.admin.call('PUT', '/api/v1/environments/', { ...staging, id: created.id, name: 'QA' });
      await team.readOnly.call('DELETE', `/api/v1/environments/${created.id}`);
      await team.admin.call('DELETE', `/api/v1/environments/${created.id}`);
    } finally {
      unsubscribe();
    }
    expect(seen).toEqual(['environment.changed', 'environment.changed', 'environment.removed']);
  });
});

describe('server SDK keys by role', () => {
  // Written out by hand from the rule "only those who may change the environment's flags see its
  // server key": editors outside production, production editors and admins everywhere.
  const VISIBLE: Record<'admin' | 'productionEditor' | 'editor' | 'readOnly', string[]> = {
    admin: ['production', 'development', 'live'],
    productionEditor: ['production', 'development', 'live'],
    editor: ['development'],
    readOnly: [],
  };

  it.each(Object.entries(VISIBLE))(
    '%s sees the server keys of %j, every other one masked, and every JS client key',
    async (role, visible) => {
      // Tagged production without the marker: protected all the same.
      await createEnvironment({ ...staging, name: 'Live', key: 'live', tags: ['Production'] });
      const real = new Map(
        (await team.admin.call('GET', '/api/v1/projects/web'))
          .json<Project>()
          .environments.map((e) => [e.key, e]),
      );
      expect([...real.keys()]).toEqual(['development', 'production', 'live']);
      for (const environment of real.values()) expect(environment.apiKey).toMatch(SERVER_SDK_KEY_PATTERN);
      const call = team[role as keyof typeof VISIBLE].call;

      const expectKeys = (seen: Environment[]) => {
        expect(seen.map((e) => e.key)).toEqual([...real.keys()]);
        for (const environment of seen) {
          const { apiKey, jsApiKey } = real.get(environment.key)!;
          expect(environment.jsApiKey).toBe(jsApiKey);
          expect(environment.apiKey, environment.key).toBe(
            visible.includes(environment.key) ? apiKey : MASKED_SERVER_SDK_KEY,
          );
        }
      };
      const list = await call('GET', '/api/v1/projects');
      expect(list.statusCode).toBe(200);
      expectKeys(list.json<Project[]>().find((p) => p.key === 'web')!.environments);
      expectKeys((await call('GET', '/api/v1/projects/web')).json<Project>().environments);
      const one: Environment[] = [];
      for (const key of real.keys()) {
        const res = await call('GET', `/api/v1/environments/web/${key}`);
        expect(res.statusCode).toBe(200);
        one.push(res.json<Environment>());
      }
      expectKeys(one);
    },
  );

  it('never puts a server key in the initial payload', async () => {
    const res = await team.readOnly.call('GET', '/api/v1/initial');
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('sdk-srv-env-');
  });
});

describe('sdkCanCreateFeatures', () => {
  async function sdkCanCreate(key: string) {
    const res = await team.admin.call('GET', `/api/v1/environments/web/${key}`);
    return res.json<Environment>().sdkCanCreateFeatures;
  }

  it('is off for production environments and on for others unless asked otherwise', async () => {
    expect(project.environments.map((e) => [e.key, e.sdkCanCreateFeatures])).toEqual([
      ['development', true],
      ['production', false],
    ]);
    expect((await createEnvironment()).sdkCanCreateFeatures).toBe(true);
    expect(
      (await createEnvironment({ ...staging, key: 'live', production: true })).sdkCanCreateFeatures,
    ).toBe(false);
    expect(
      (await createEnvironment({ ...staging, key: 'eu', tags: ['production'] })).sdkCanCreateFeatures,
    ).toBe(false);
    expect(
      (await createEnvironment({ ...staging, key: 'canary', production: true, sdkCanCreateFeatures: true }))
        .sdkCanCreateFeatures,
    ).toBe(true);
  });

  it('is changed by organisation admins, audited, kept when not sent, and off when becoming production', async () => {
    const created = await createEnvironment();
    const body = { ...staging, id: created.id };
    for (const member of [team.productionEditor, team.editor, team.readOnly]) {
      const res = await member.call('PUT', '/api/v1/environments/', { ...body, sdkCanCreateFeatures: false });
      expect(res.statusCode).toBe(403);
    }
    expect(await sdkCanCreate('staging')).toBe(true);

    const off = await team.admin.call('PUT', '/api/v1/environments/', {
      ...body,
      sdkCanCreateFeatures: false,
    });
    expect(off.json<Environment>().sdkCanCreateFeatures).toBe(false);
    const [item] = await auditTrail(team.admin.call);
    expect(item!.description).toContain('- SDKs may create features: `true` → `false`');
    await team.admin.call('PUT', '/api/v1/environments/', { ...body, name: 'QA' });
    expect(await sdkCanCreate('staging')).toBe(false);

    await team.admin.call('PUT', '/api/v1/environments/', { ...body, sdkCanCreateFeatures: true });
    await team.admin.call('PUT', '/api/v1/environments/', { ...body, production: true });
    expect(await sdkCanCreate('staging')).toBe(false);
    await team.admin.call('PUT', '/api/v1/environments/', {
      ...body,
      production: true,
      sdkCanCreateFeatures: true,
    });
    expect(await sdkCanCreate('staging')).toBe(true);
  });
});
