/**
 * Counting exactness with the published server SDK: featureflow-node-sdk evaluates 2,000 users on a
 * 50/50 split, its own evaluate events are the exposures, and goal rows in the Node HEAD / Java shape
 * are the conversions. The statistics must equal what the test sent, exactly.
 */
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Environment, Experiment, ExperimentStatistics, Feature } from '@vexil/core';
import { createTeam, type Team } from '../../../test/api';
import { createFeature } from '../../../test/features';
import { createHarness, type Harness } from '../../../test/helpers';
import { saveControl } from '../../../test/sdk';

type FeatureflowClient = {
  evaluate(key: string, user: unknown): { value(): string };
  close?: () => void;
  eventsClient: { sendQueue(): void; close(): void };
};
type FeatureflowModule = {
  Client: new (
    config: Record<string, unknown>,
    callback: (error: unknown, client: FeatureflowClient) => void,
  ) => FeatureflowClient;
  UserBuilder: new (id: string) => { build(): unknown };
};
const Featureflow = createRequire(import.meta.url)('featureflow-node-sdk') as FeatureflowModule;

const USERS = 2_000;

let h: Harness;
let team: Team;
let address: string;
let development: Environment;
let experiment: Experiment;

beforeAll(async () => {
  h = await createHarness();
  team = await createTeam(h);
  const project = (await team.admin.call('POST', '/api/v1/projects/', { name: 'Shop', key: 'shop' })).json<{
    environments: Environment[];
  }>();
  development = project.environments.find((e) => e.key === 'development')!;
  const feature = await createFeature(team.admin.call, 'shop', { name: 'Banner', key: 'banner' });
  await saveControl(team.admin.call, feature, development, {
    enabled: true,
    rules: [
      {
        defaultRule: true,
        audience: null,
        variantSplits: [
          { variantKey: 'off', split: 50 },
          { variantKey: 'on', split: 50 },
        ],
      },
    ] as Feature['controls'][string]['rules'],
  });
  const created = await team.admin.call('POST', '/api/v1/experiments/', {
    projectKey: 'shop',
    environmentKey: 'development',
    name: 'Banner',
    goalKey: 'purchase',
    featureId: feature.id,
    control: 'off',
    variation: 'on',
    enabled: true,
  });
  expect(created.statusCode, created.body).toBe(201);
  experiment = created.json<Experiment>();
  await h.app.sdk.store.settled();
  address = await h.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await h.close();
});

describe('experiment counting with featureflow-node-sdk', () => {
  it('counts 2,000 users of a 50/50 experiment and their conversions exactly', async () => {
    const client = await new Promise<FeatureflowClient>((resolve, reject) => {
      new Featureflow.Client(
        { apiKey: development.apiKey, baseUrl: address, eventsUrl: address, interval: 0 },
        (error, ready) => (error ? reject(error as Error) : resolve(ready)),
      );
    });
    const expected = { on: { impressions: 0, goals: 0 }, off: { impressions: 0, goals: 0 } };
    const goals: unknown[] = [];
    try {
      for (let i = 0; i < USERS; i++) {
        const id = `shopper-${i}`;
        const variant = client.evaluate('banner', new Featureflow.UserBuilder(id).build()).value() as
          'on' | 'off';
        // Seen twice: still one exposed user.
        if (i % 7 === 0) client.evaluate('banner', new Featureflow.UserBuilder(id).build());
        expected[variant].impressions += 1;
        // Known conversion: 1 in 5 of "on", 1 in 10 of "off"; some buy twice, counted once.
        const converts = variant === 'on' ? i % 5 === 0 : i % 10 === 0;
        if (converts) {
          expected[variant].goals += 1;
          goals.push({ type: 'goal', goalKey: 'purchase', user: { id }, value: 10 });
          if (i % 3 === 0) goals.push({ type: 'goal', goalKey: 'purchase', user: { id }, value: 10 });
        }
      }
      client.eventsClient.sendQueue();
      // The SDK's evaluate rows are stored once answered; wait until all of them are.
      await expect
        .poll(
          async () => {
            await h.app.sdk.ingestion.flush();
            const stats = (
              await team.admin.call('GET', `/api/v1/experiment-statistics/${experiment.id}`)
            ).json<ExperimentStatistics>();
            return stats.variantResults.on!.impressions + stats.variantResults.off!.impressions;
          },
          { timeout: 20_000, interval: 100 },
        )
        .toBe(USERS);
    } finally {
      if (typeof client.close === 'function') client.close();
      client.eventsClient.close();
    }

    // Conversions arrive after the exposures, as a server SDK sends them.
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/sdk/v1/events',
      headers: { authorization: `Bearer ${development.apiKey}` },
      payload: goals as object,
    });
    expect(res.statusCode).toBe(200);

    const stats = (
      await team.admin.call('GET', `/api/v1/experiment-statistics/${experiment.id}`)
    ).json<ExperimentStatistics>();
    expect({
      on: { impressions: stats.variantResults.on!.impressions, goals: stats.variantResults.on!.goals },
      off: { impressions: stats.variantResults.off!.impressions, goals: stats.variantResults.off!.goals },
    }).toEqual(expected);
    // A 50/50 split of 2,000 users is close to even; the check does not flag it.
    expect(Math.abs(expected.on.impressions - expected.off.impressions)).toBeLessThan(200);
    expect(stats.sampleRatio.flagged).toBe(false);
    expect(stats.usersInBothVariants).toBe(0);
    // 20 % against 10 % over about 1,000 users each is a clear winner.
    expect(stats).toMatchObject({ validResult: true, winningVariation: 'on' });
  });
});
