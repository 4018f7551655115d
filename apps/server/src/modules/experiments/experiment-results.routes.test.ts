import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Experiment, ExperimentStatistics } from '@vexil/core';
import { createTeam, type Team } from '../../../test/api';
import { createHarness, type Harness } from '../../../test/helpers';
import { sdkFixture } from '../../../test/sdk';

/**
 * The experiments list says which variant is winning (docs/product.md, Experiments page): its
 * `results` are read from the counts as they are, with the statistics page's 95 % threshold, at each
 * read (nothing is stored), so the list and the statistics page agree.
 */
let h: Harness;
let team: Team;
let fixture: Awaited<ReturnType<typeof sdkFixture>>;

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

async function create(name: string, enabled: boolean): Promise<Experiment> {
  const res = await team.admin.call('POST', '/api/v1/experiments/', {
    projectKey: 'web',
    environmentKey: 'development',
    name,
    goalKey: 'purchase-made',
    featureId: fixture.checkout.id,
    control: 'off',
    variation: 'on',
    enabled,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Experiment>();
}

/** 1,000 users in each variant, of whom `off` and `on` convert. */
async function convert(off: number, on: number) {
  const shown = (id: string, variant: string) => ({
    type: 'evaluate',
    featureKey: 'checkout',
    evaluatedVariant: variant,
    user: { id },
  });
  const goal = (id: string) => ({ type: 'goal', goalKey: 'purchase-made', user: { id } });
  const post = async (rows: unknown[]) => {
    await h.app.sdk.store.settled();
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/sdk/v1/events',
      headers: { authorization: `Bearer ${fixture.development.apiKey}` },
      payload: rows as object,
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const exposures: unknown[] = [];
  for (let i = 0; i < 1000; i++) exposures.push(shown(`c${i}`, 'off'), shown(`v${i}`, 'on'));
  await post(exposures);
  const goals: unknown[] = [];
  for (let i = 0; i < off; i++) goals.push(goal(`c${i}`));
  for (let i = 0; i < on; i++) goals.push(goal(`v${i}`));
  await post(goals);
}

async function listed(): Promise<Record<string, Experiment['results']>> {
  const res = await team.admin.call('GET', '/api/v1/experiments/?projectKey=web&environmentKey=development');
  expect(res.statusCode, res.body).toBe(200);
  return Object.fromEntries(res.json<Experiment[]>().map((e) => [e.name, e.results]));
}

describe('GET /api/v1/experiments/ results', () => {
  it('names the winner at 95 % confidence, as the statistics page does', async () => {
    const running = await create('Running', true);
    await create('Draft', false);
    // 10 % against 13 %: z ≈ 2.10, confidence ≈ 96.5 %.
    await convert(100, 130);
    expect(await listed()).toEqual({
      Running: { validResult: true, winningVariation: 'on' },
      Draft: null,
    });
    const statistics = await team.admin.call('GET', `/api/v1/experiment-statistics/${running.id}`);
    expect(statistics.json<ExperimentStatistics>()).toMatchObject({
      validResult: true,
      winningVariation: 'on',
    });
    const one = await team.admin.call('GET', `/api/v1/experiments/${running.id}`);
    expect(one.json<Experiment>().results).toEqual({ validResult: true, winningVariation: 'on' });
  });

  it('names none below 95 %, and none before the result is valid', async () => {
    await create('Running', true);
    expect(await listed()).toEqual({ Running: { validResult: false, winningVariation: null } });
    // 10 % against 11 %: valid, z ≈ 0.73, no winner.
    await convert(100, 110);
    expect(await listed()).toEqual({ Running: { validResult: true, winningVariation: null } });
  });
});
