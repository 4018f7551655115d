/**
 * What the integration route tests share: a fake Slack, a harness on a test clock, and a team with the SDK
 * fixture's project `web`.
 */
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { Feature, Integration } from '@vexil/core';
import { createTeam, type Caller, type Team } from '../../../test/api';
import { startFakeSlack, type FakeSlack } from '../../../test/fake-slack';
import { createHarness, type Harness } from '../../../test/helpers';
import { FAST_INTEGRATIONS, integrationsEnv, testClock } from '../../../test/integrations';
import { sdkFixture } from '../../../test/sdk';

export let h: Harness;
export let slack: FakeSlack;
export let team: Team;
export let fixture: Awaited<ReturnType<typeof sdkFixture>>;
export const clock = testClock();

export const settled = () => h.app.services.integrations.settled();

export async function list(call: Caller = team.admin.call): Promise<Integration[]> {
  const res = await call('GET', '/api/v1/integrations');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Integration[]>();
}

export async function toggle(feature: Feature, environmentKey: string, enabled: boolean) {
  const control = feature.controls[environmentKey]!;
  const res = await team.admin.call('PUT', `/api/v1/feature-controls/${control.id}/enabled`, { enabled });
  expect(res.statusCode, res.body).toBe(200);
}

/** The feature as it is now (its controls' versions move with each change). */
export async function reload(feature: Feature): Promise<Feature> {
  const res = await team.admin.call('GET', `/api/v1/projects/web/features/${feature.key}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Feature>();
}

export function texts(): string[] {
  return slack.posts.map((post) => post.body.text ?? '');
}

/**
 * Starts the fake Slack and the harness for the calling test file, and starts each of its tests from a fresh
 * team, project and clock, with nothing posted to Slack.
 */
export function setUpIntegrationRoutes(): void {
  beforeAll(async () => {
    slack = await startFakeSlack();
    h = await createHarness(integrationsEnv(slack), { now: clock.now, integrations: FAST_INTEGRATIONS });
  });
  afterAll(async () => {
    await h?.close();
    await slack?.close();
  });
  beforeEach(async () => {
    // What a test left on its way (a post, a retry) lands before the next one starts.
    await h.app.services.integrations.settled();
    await h.database.reset();
    clock.reset();
    slack.posts.length = 0;
    slack.exchanges.length = 0;
    team = await createTeam(h);
    fixture = await sdkFixture(team.admin.call);
    // The fixture's own changes are passed on before the test adds an integration.
    await h.app.services.integrations.settled();
  });
}
