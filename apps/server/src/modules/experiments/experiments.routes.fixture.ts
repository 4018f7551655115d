/**
 * What the experiment route tests share: a harness, a team with the SDK fixture's project `web`, and the
 * calls that create experiments, send SDK events and read statistics.
 */
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import {
  experimentStatisticsSchema,
  type Environment,
  type Experiment,
  type ExperimentStatistics,
} from '@vexil/core';
import { createTeam, type Caller, type Team } from '../../../test/api';
import { createHarness, type Harness } from '../../../test/helpers';
import { sdkFixture } from '../../../test/sdk';

export let h: Harness;
export let team: Team;
export let fixture: Awaited<ReturnType<typeof sdkFixture>>;

export function body(
  overrides: Record<string, unknown> = {},
  environment: Environment = fixture.development,
) {
  return {
    projectKey: 'web',
    environmentKey: environment.key,
    name: 'Checkout button',
    description: 'Does the new button sell more?',
    goalKey: 'Purchase Made',
    featureId: fixture.checkout.id,
    control: 'off',
    variation: 'on',
    ...overrides,
  };
}

export async function create(
  call: Caller,
  overrides: Record<string, unknown> = {},
  environment?: Environment,
) {
  const res = await call('POST', '/api/v1/experiments/', body(overrides, environment));
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Experiment>();
}

export async function put(call: Caller, experiment: Experiment, changes: Record<string, unknown>) {
  return call('PUT', '/api/v1/experiments/', {
    id: experiment.id,
    projectKey: experiment.projectKey,
    environmentKey: experiment.environmentKey,
    name: experiment.name,
    description: experiment.description,
    goalKey: experiment.goalKey,
    featureId: experiment.featureId,
    control: experiment.control,
    variation: experiment.variation,
    enabled: experiment.enabled,
    mode: experiment.mode,
    ...changes,
  });
}

/** Posts SDK events with the environment's server key; they are stored once this answers 200. */
export async function events(rows: unknown[], environment: Environment = fixture.development) {
  await h.app.sdk.store.settled();
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/sdk/v1/events',
    headers: { authorization: `Bearer ${environment.apiKey}` },
    payload: rows as object,
  });
  expect(res.statusCode, res.body).toBe(200);
}

export const shown = (user: string, variant: string, at?: string) => ({
  type: 'evaluate',
  featureKey: 'checkout',
  evaluatedVariant: variant,
  user: { id: user },
  ...(at ? { timestamp: at } : {}),
});
export const goal = (user: string, extra: Record<string, unknown> = {}) => ({
  type: 'goal',
  goalKey: 'purchase-made',
  user: { id: user },
  ...extra,
});

export async function statistics(call: Caller, id: string) {
  const res = await call('GET', `/api/v1/experiment-statistics/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return experimentStatisticsSchema.parse(res.json()) satisfies ExperimentStatistics;
}

/** Opens the harness for the calling test file and starts each of its tests from a fresh team and project. */
export function setUpExperimentRoutes(): void {
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(async () => {
    await h.database.reset();
    team = await createTeam(h);
    fixture = await sdkFixture(team.admin.call);
  });
}
