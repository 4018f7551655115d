/** What the features route tests share: a harness, and before each test a team with the project `web`. */
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { Feature, HomeFeaturePage, Project } from '@vexil/core';
import { createTeam, type Caller, type Team } from '../../../test/api';
import { createHarness, type Harness } from '../../../test/helpers';

export let h: Harness;
export let team: Team;
export let project: Project;

export type HomePage = HomeFeaturePage;

export async function createFeature(
  body: Record<string, unknown>,
  call: Caller = team.admin.call,
): Promise<Feature> {
  const res = await call('POST', '/api/v1/projects/web/features', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Feature>();
}

export function settings(feature: Feature, changes: Record<string, unknown> = {}) {
  return {
    id: feature.id,
    name: feature.name,
    key: feature.key,
    description: feature.description,
    permanent: feature.permanent,
    variants: feature.variants,
    tags: feature.tags,
    jiraIssueKeys: feature.jiraIssueKeys,
    goals: feature.goals,
    maintainerId: feature.maintainer?.id ?? null,
    ...changes,
  };
}

/** Opens the harness for the calling test file and starts each of its tests from a fresh team and project. */
export function setUpFeatureRoutes(): void {
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(async () => {
    await h.database.reset();
    team = await createTeam(h);
    const created = await team.admin.call('POST', '/api/v1/projects/', { name: 'Web shop', key: 'web' });
    project = created.json<Project>();
    expect(project.key).toBe('web');
  });
}
