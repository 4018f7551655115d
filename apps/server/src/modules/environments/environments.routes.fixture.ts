/** What the environment route tests share: a harness, and before each test a team with the project `web`. */
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Environment, Project } from '@vexil/core';
import { featureControls, features, variants } from '../../db/schema/index';
import { createTeam, type Team } from '../../../test/api';
import { createHarness, type Harness } from '../../../test/helpers';

export let h: Harness;
export let team: Team;
export let project: Project;

export const staging = { projectKey: 'web', name: 'Staging', key: 'staging' };

/** One of the environments the project started with. */
export function started(key: 'production' | 'development'): Environment {
  return project.environments.find((e) => e.key === key)!;
}

export async function createEnvironment(body: Record<string, unknown> = staging): Promise<Environment> {
  const res = await team.admin.call('POST', '/api/v1/environments/', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Environment>();
}

/** A feature with variants on/off in the project, the way the features API will create it. */
export async function addFeature(key: string) {
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

export async function controlsOf(environmentId: string) {
  return h.database.db.select().from(featureControls).where(eq(featureControls.environmentId, environmentId));
}

/** Opens the harness for the calling test file and starts each of its tests from a fresh team and project. */
export function setUpEnvironmentRoutes(): void {
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
}
