import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import { environments, featureControls, features, organisations, projects, users } from './db/schema/index';
import type { Feature, VersionPage } from '@vexil/core';
import { seed } from './seed';
import { callerFor } from '../test/api';
import { createHarness, type Harness } from '../test/helpers';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  await h.database.reset();
});

async function counts() {
  const db = h.database.db;
  const [o] = await db.select({ n: count() }).from(organisations);
  const [u] = await db.select({ n: count() }).from(users);
  const [p] = await db.select({ n: count() }).from(projects);
  const [e] = await db.select({ n: count() }).from(environments);
  const [f] = await db.select({ n: count() }).from(features);
  const [c] = await db.select({ n: count() }).from(featureControls);
  return {
    organisations: o!.n,
    users: u!.n,
    projects: p!.n,
    environments: e!.n,
    features: f!.n,
    controls: c!.n,
  };
}

describe('seed', () => {
  it('creates the demo organisation, its admin and a sample project once', async () => {
    const first = await seed(h.database.db, { adminPassword: undefined, demo: true, hashCost: 'test' });
    expect(first.created).toBe(true);
    expect(first.generatedPassword).toMatch(/^[A-Za-z0-9_-]{16}$/);
    const after = await counts();
    expect(after).toEqual({
      organisations: 1,
      users: 1,
      projects: 1,
      environments: 2,
      features: 3,
      controls: 6,
    });

    const second = await seed(h.database.db, { adminPassword: undefined, demo: true, hashCost: 'test' });
    expect(second).toMatchObject({ created: false, generatedPassword: null });
    expect(await counts()).toEqual(after);
  });

  it('gives the sample features and their controls the first versions a created feature has', async () => {
    const { generatedPassword } = await seed(h.database.db, {
      adminPassword: undefined,
      demo: true,
      hashCost: 'test',
    });
    const login = await h.app.inject({
      method: 'POST',
      url: '/api/authenticate',
      payload: { username: 'admin@example.com', password: generatedPassword, domain: 'demo' },
    });
    const call = callerFor(h.app, login.json<{ id_token: string }>().id_token);
    const history = (query = '') =>
      call('GET', `/api/v1/projects/sp/features/new-checkout/versions${query}`).then((res) =>
        res.json<VersionPage>(),
      );
    expect((await history()).content.map((v) => [v.number, v.source, v.changes[0]])).toEqual([
      [1, 'system', 'Created'],
    ]);
    expect((await history('?environmentKey=development')).content).toHaveLength(1);

    // The seeded snapshots are what the server itself builds: saving the settings unchanged adds none.
    const feature = (await call('GET', '/api/v1/projects/sp/features/new-checkout')).json<Feature>();
    const saved = await call('PUT', '/api/v1/projects/sp/features', {
      ...feature,
      maintainerId: feature.maintainer?.id ?? null,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await history()).content).toHaveLength(1);
    // And the first toggle reads as one.
    const control = feature.controls.development!;
    await call('PUT', `/api/v1/feature-controls/${control.id}/enabled`, { enabled: true });
    expect((await history('?environmentKey=development')).content[0]!.changes).toEqual(['Turned on']);
  });

  it('lets the admin sign in with the generated password', async () => {
    const result = await seed(h.database.db, { adminPassword: undefined, demo: false, hashCost: 'test' });
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/authenticate',
      payload: { username: 'admin@example.com', password: result.generatedPassword, domain: 'demo' },
    });
    expect(res.statusCode).toBe(200);
    expect((await counts()).projects).toBe(0);
  });

  it('makes a configured VEXIL_ADMIN_PASSWORD work on a later start', async () => {
    await seed(h.database.db, { adminPassword: undefined, demo: false, hashCost: 'test' });
    await seed(h.database.db, { adminPassword: 'chosen-password', demo: false, hashCost: 'test' });
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/authenticate',
      payload: { username: 'admin@example.com', password: 'chosen-password', domain: 'demo' },
    });
    expect(res.statusCode).toBe(200);
  });
});
