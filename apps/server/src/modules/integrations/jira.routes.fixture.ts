/**
 * What the Jira route tests share: a fake Jira with two issues, a harness on a test clock, and a team with
 * the SDK fixture's project `web`.
 */
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { Feature, JiraConnection, JiraConnectToken } from '@vexil/core';
import { createTeam, type Caller, type Team } from '../../../test/api';
import { startFakeJira, type FakeJira } from '../../../test/fake-jira';
import { createHarness, type Harness } from '../../../test/helpers';
import { FAST_INTEGRATIONS, integrationsEnv, testClock } from '../../../test/integrations';
import { sdkFixture } from '../../../test/sdk';

export let h: Harness;
export let jira: FakeJira;
export let team: Team;
export let fixture: Awaited<ReturnType<typeof sdkFixture>>;
export const clock = testClock();

export const settled = () => h.app.services.integrations.settled();

export async function connectToken(call: Caller = team.admin.call): Promise<string> {
  const res = await call('GET', '/api/v1/integrations/jira/connect-token');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<JiraConnectToken>().token;
}

export function details(changes: Record<string, unknown> = {}) {
  return { baseUrl: jira.url, email: jira.email, apiToken: jira.apiToken, ...changes };
}

export async function connect(call: Caller = team.admin.call): Promise<JiraConnection> {
  const res = await call('POST', '/api/v1/integrations/jira/connect', {
    token: await connectToken(call),
    ...details(),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<JiraConnection>();
}

export function fieldErrors(res: { json: <T>() => T }) {
  return res.json<{ errors?: { field: string; message: string }[] }>().errors;
}

export function requestsTo(path: string): number {
  return jira.requests.filter((request) => request === path).length;
}

export async function feature(key: string): Promise<Feature> {
  const res = await team.admin.call('GET', `/api/v1/projects/web/features/${key}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Feature>();
}

/**
 * Starts the fake Jira and the harness for the calling test file, and starts each of its tests from a fresh
 * team, project and clock, with Jira up and no comments.
 */
export function setUpJiraRoutes(): void {
  beforeAll(async () => {
    jira = await startFakeJira({ issues: { 'ABC-1': 'Checkout redesign', 'ABC-2': 'Dark mode' } });
    h = await createHarness(integrationsEnv(), { now: clock.now, integrations: FAST_INTEGRATIONS });
  });
  afterAll(async () => {
    await h?.close();
    await jira?.close();
  });
  beforeEach(async () => {
    await h.app.services.integrations.settled();
    await h.database.reset();
    clock.reset();
    jira.down(false);
    jira.comments.length = 0;
    jira.issues.set('ABC-1', 'Checkout redesign');
    team = await createTeam(h);
    fixture = await sdkFixture(team.admin.call);
    // The fixture's own changes are passed on before the test adds an integration.
    await h.app.services.integrations.settled();
  });
}
