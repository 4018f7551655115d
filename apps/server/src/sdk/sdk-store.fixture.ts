/**
 * What the SDK store tests share: a harness, a team with the SDK fixture's project, what a rebuild from the
 * database serves for comparison, and the changes the tests make through the dashboard API.
 */
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { Environment, Feature } from '@vexil/core';
import { createTeam, type Team } from '../../test/api';
import { createHarness, type Harness } from '../../test/helpers';
import { sdkFixture } from '../../test/sdk';
import { createChangeEvents } from '../lib/change-events';
import { createSdkStore, type EnvironmentSnapshot } from './sdk-store';

export let h: Harness;
export let team: Team;
export let development: Environment;
export let production: Environment;

/** What a store built afresh from the database serves for this environment: the reference. */
export async function rebuiltFromDatabase(environment: Environment): Promise<EnvironmentSnapshot> {
  const fresh = createSdkStore({
    db: h.database.db,
    events: createChangeEvents(() => {}),
    logger: h.app.log,
  });
  const snapshot = await fresh.find(environment.apiKey);
  if (!snapshot) throw new Error(`No payload for ${environment.key}`);
  return snapshot;
}

export async function poll(environment: Environment) {
  const res = await h.app.inject({
    method: 'GET',
    url: '/api/sdk/v1/features',
    headers: { authorization: `Bearer ${environment.apiKey}` },
  });
  expect(res.statusCode).toBe(200);
  return { body: res.body, etag: res.headers.etag as string };
}

/** Serves what a full rebuild gives: the same bytes, ETag, rows, experiments and clock use. */
export async function expectAsRebuilt(environment: Environment) {
  const served = await poll(environment);
  const reference = await rebuiltFromDatabase(environment);
  expect(served.body).toBe(reference.body);
  expect(served.etag).toBe(reference.etag);
  const inMemory = h.app.sdk.store.get(reference.keys.environmentId)!;
  const rows = (snapshot: EnvironmentSnapshot) =>
    [...snapshot.controls].map(([key, entry]) => [key, entry.controlId, entry.featureId, entry.keyJson]);
  expect(rows(inMemory)).toEqual(rows(reference));
  expect([...inMemory.experiments.byFeature.keys()]).toEqual([...reference.experiments.byFeature.keys()]);
  expect([...inMemory.experiments.byGoal.keys()]).toEqual([...reference.experiments.byGoal.keys()]);
  expect(inMemory.readsClock).toEqual(reference.readsClock);
  return served;
}

export async function feature(key: string): Promise<Feature> {
  const res = await team.admin.call('GET', `/api/v1/projects/web/features/${key}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Feature>();
}

export async function deleteFeature(key: string) {
  const { id } = await feature(key);
  const res = await team.admin.call('DELETE', `/api/v1/project/web/features/${id}/`);
  expect(res.statusCode, res.body).toBeLessThan(300);
}

/** Sets the `on` variant's name and value through the feature's settings (every environment's payload). */
export async function editVariants(key: string, name: string, value: unknown) {
  const current = await feature(key);
  const res = await team.admin.call('PUT', '/api/v1/projects/web/features', {
    ...current,
    maintainerId: null,
    variants: current.variants.map((v) =>
      v.key === 'on' ? { key: 'on', name, ...(value === undefined ? {} : { value }) } : v,
    ),
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** Opens the harness for the calling test file and starts each of its tests from a fresh team and project. */
export function setUpSdkStore(): void {
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
}
