import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { MASKED_SERVER_SDK_KEY, type Environment, type Feature, type Project } from '@vexil/core';
import { auditItems, features } from '../../db/schema/index';
import { auditTrail, createTeam, type Team } from '../../../test/api';
import { createHarness, type Harness } from '../../../test/helpers';
import { sdkFixture } from '../../../test/sdk';

let h: Harness;
let team: Team;
let development: Environment;
let production: Environment;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  await h.database.reset();
  team = await createTeam(h);
  ({ development, production } = await sdkFixture(team.admin.call));
  await h.app.sdk.store.settled();
});

const DECLARED = [
  { key: 'checkout', failoverVariant: 'on' },
  { key: 'new-nav', failoverVariant: 'off', variants: [{ key: 'on' }, { key: 'off' }] },
];

function register(key: string, body: unknown = DECLARED) {
  return h.app.inject({
    method: 'PUT',
    url: '/api/sdk/v1/register',
    headers: { authorization: `Bearer ${key}` },
    payload: JSON.stringify(body),
  });
}

async function feature(key: string) {
  const res = await team.admin.call('GET', `/api/v1/projects/web/features/${key}`);
  return res.statusCode === 200 ? res.json<Feature>() : null;
}

async function pollKeys(environment: Environment) {
  await h.app.sdk.store.settled();
  const res = await h.app.inject({
    method: 'GET',
    url: '/api/sdk/v1/features',
    headers: { authorization: `Bearer ${environment.apiKey}` },
  });
  return Object.keys(res.json<Record<string, unknown>>()).sort();
}

describe('PUT /api/sdk/v1/register in a production environment', () => {
  it('answers 200 and creates nothing, but marks existing features available', async () => {
    const res = await register(production.apiKey);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
    expect(await feature('new-nav')).toBeNull();
    expect(await h.database.db.select().from(features).where(eq(features.key, 'new-nav'))).toEqual([]);
    expect((await feature('checkout'))!.controls.production!.available).toBe(true);
    expect(await pollKeys(production)).toEqual(['checkout']);
    expect(await pollKeys(development)).toEqual(['checkout']);
  });

  it('creates the features once an organisation admin lets SDKs create them there', async () => {
    const allowed = await team.admin.call('PUT', '/api/v1/environments/', {
      ...production,
      sdkCanCreateFeatures: true,
    });
    expect(allowed.statusCode, allowed.body).toBe(200);
    expect((await register(production.apiKey)).statusCode).toBe(200);
    const created = await feature('new-nav');
    expect(created!.controls.production).toMatchObject({ available: true, enabled: false });
    expect(await pollKeys(production)).toEqual(['checkout', 'new-nav']);
  });

  it('creates nothing where the environment asks for change requests, and still marks existing features available', async () => {
    await team.admin.call('PUT', '/api/v1/environments/', { ...production, sdkCanCreateFeatures: true });
    const protectedNow = await team.admin.call(
      'PUT',
      '/api/v1/projects/web/environments/production/approval-settings',
      {
        required: true,
        minApprovals: 1,
        allowSelfApproval: false,
        resetApprovalsOnChange: true,
        autoApply: false,
      },
    );
    expect(protectedNow.statusCode, protectedNow.body).toBe(200);
    expect((await register(production.apiKey)).statusCode).toBe(200);
    expect(await feature('new-nav')).toBeNull();
    expect((await feature('checkout'))!.controls.production!.available).toBe(true);
  });
});

describe('PUT /api/sdk/v1/register in a non-production environment', () => {
  it('creates the missing features, audited with the SDK of the environment as the actor', async () => {
    expect((await register(development.apiKey)).statusCode).toBe(200);
    const created = await feature('new-nav');
    expect(created!.controls.development!.available).toBe(true);
    expect(created!.controls.production!.enabled).toBe(false);
    const [item] = await auditTrail(team.admin.call);
    expect(item).toMatchObject({ title: 'Feature new-nav registered by the SDK of Development' });
    expect(item!.description).toBe(
      'The server SDK key of the environment **Development** (`development`) registered the feature ' +
        '`new-nav` with the variants `on`, `off`. It is off in every environment.',
    );
    const [row] = await h.database.db.select().from(auditItems).where(eq(auditItems.featureKey, 'new-nav'));
    expect(row).toMatchObject({
      actorId: null,
      projectKey: 'web',
      environmentKey: 'development',
      data: { actor: { type: 'sdk', environmentId: development.id, environmentKey: 'development' } },
    });
  });

  it('creates nothing where an organisation admin turned SDK creation off', async () => {
    await team.admin.call('PUT', '/api/v1/environments/', { ...development, sdkCanCreateFeatures: false });
    expect((await register(development.apiKey)).statusCode).toBe(200);
    expect(await feature('new-nav')).toBeNull();
  });
});

describe('a read-only user', () => {
  it('gets no server key to register features with', async () => {
    const project = (await team.readOnly.call('GET', '/api/v1/projects/web')).json<Project>();
    for (const environment of project.environments) {
      expect(environment.apiKey).toBe(MASKED_SERVER_SDK_KEY);
      expect((await register(environment.apiKey)).statusCode).toBe(401);
    }
    expect(await feature('new-nav')).toBeNull();
  });
});
