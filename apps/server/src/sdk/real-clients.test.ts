/**
 * The published clients against a real Vexil: featureflow-node-sdk (the Featureflow server SDK)
 * and OpenFeature's server SDK with its OFREP provider. What they compute must equal Vexil's engine.
 */
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { OpenFeature } from '@openfeature/server-sdk';
import { OFREPProvider } from '@openfeature/ofrep-provider';
import { evaluate, type Environment, type EvaluableControl, type Feature } from '@vexil/core';
import { impressionCounters } from '../db/schema/index';
import { createTeam, type Team } from '../../test/api';
import { createFeature, otherwise } from '../../test/features';
import { createHarness, type Harness } from '../../test/helpers';
import { saveControl } from '../../test/sdk';
import { OFREP_JS_KEY, OFREP_KEY_INVALID } from './ofrep-answer';

type FeatureflowClient = {
  evaluate(key: string, user: unknown): { value(): string; is(variant: string): boolean };
  close?: () => void;
  eventsClient: { sendQueue(): void; close(): void };
};
type FeatureflowModule = {
  Client: new (
    config: Record<string, unknown>,
    callback: (error: unknown, client: FeatureflowClient) => void,
  ) => FeatureflowClient;
  UserBuilder: new (id: string) => { withAttribute(key: string, value: unknown): unknown; build(): unknown };
  Feature: new (key: string, failover?: string) => { build(): unknown };
};
const Featureflow = createRequire(import.meta.url)('featureflow-node-sdk') as FeatureflowModule;

let h: Harness;
let team: Team;
let address: string;
let development: Environment;
const features: Feature[] = [];

const tiers = ['gold', 'silver', 'bronze'];
function userFor(i: number) {
  return {
    id: `user-${i}`,
    attributes: {
      tier: tiers[i % 3]!,
      email: i % 4 === 0 ? `u${i}@example.com` : `u${i}@other.org`,
      age: i % 60,
    },
  };
}

beforeAll(async () => {
  h = await createHarness();
  team = await createTeam(h);
  const project = (await team.admin.call('POST', '/api/v1/projects/', { name: 'Shop', key: 'shop' })).json<{
    environments: Environment[];
  }>();
  development = project.environments.find((e) => e.key === 'development')!;
  await team.admin.call('POST', '/api/v1/projects/shop/targets', { key: 'age', name: 'Age', type: 'number' });
  const variants = [
    { key: 'on', name: 'On' },
    { key: 'off', name: 'Off' },
    { key: 'blue', name: 'Blue', value: { colour: '#00f' } },
  ];
  const rulesets = [
    [
      {
        defaultRule: false,
        audience: { conditions: [{ target: 'tier', operator: 'equals', values: ['gold'] }] },
        variantSplits: [{ variantKey: 'on', split: 100 }],
      },
      {
        defaultRule: true,
        audience: null,
        variantSplits: [
          { variantKey: 'off', split: 50 },
          { variantKey: 'on', split: 50 },
        ],
      },
    ],
    [
      {
        defaultRule: false,
        audience: {
          conditions: [
            { target: 'email', operator: 'endsWith', values: ['@example.com'] },
            { target: 'age', operator: 'greaterThanOrEqual', values: [18] },
          ],
        },
        variantSplits: [
          { variantKey: 'blue', split: 30 },
          { variantKey: 'on', split: 70 },
        ],
      },
      {
        defaultRule: false,
        audience: { conditions: [{ target: 'tier', operator: 'in', values: ['silver', 'bronze'] }] },
        variantSplits: [{ variantKey: 'off', split: 100 }],
      },
      otherwise('on'),
    ],
    [
      {
        defaultRule: true,
        audience: null,
        variantSplits: [
          { variantKey: 'on', split: 10 },
          { variantKey: 'off', split: 60 },
          { variantKey: 'blue', split: 30 },
        ],
      },
    ],
  ];
  for (const [i, rules] of rulesets.entries()) {
    const feature = await createFeature(team.admin.call, 'shop', {
      name: `Feature ${i}`,
      key: `feature-${i}`,
      variants,
    });
    await saveControl(team.admin.call, feature, development, {
      enabled: true,
      rules: rules as Feature['controls'][string]['rules'],
    });
    features.push(
      (await team.admin.call('GET', `/api/v1/projects/shop/features/feature-${i}`)).json<Feature>(),
    );
  }
  await h.app.sdk.store.settled();
  address = await h.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await OpenFeature.close();
  await h.close();
});

describe('featureflow-node-sdk 0.6.7', () => {
  it('evaluates 1,000 users exactly as Vexil’s engine, its events are counted exactly, and register creates features', async () => {
    const client = await new Promise<FeatureflowClient>((resolve, reject) => {
      new Featureflow.Client(
        {
          apiKey: development.apiKey,
          baseUrl: address,
          eventsUrl: address,
          interval: 0,
          withFeatures: [new Featureflow.Feature('registered-by-sdk', 'on').build()],
        },
        (error, ready) => (error ? reject(error as Error) : resolve(ready)),
      );
    });
    try {
      const now = new Date();
      const expectedCounts = new Map<string, number>();
      for (let i = 0; i < 1000; i++) {
        const { id, attributes } = userFor(i);
        const builder = new Featureflow.UserBuilder(id);
        for (const [key, value] of Object.entries(attributes)) builder.withAttribute(key, value);
        const user = builder.build();
        for (const feature of features) {
          const control = feature.controls.development!;
          const expected = evaluate(
            {
              key: feature.key,
              enabled: control.enabled,
              offVariantKey: control.offVariantKey,
              rules: control.rules,
            } as EvaluableControl,
            { id, attributes },
            now,
          ).variant;
          expect(client.evaluate(feature.key, user).value(), `${feature.key} ${id}`).toBe(expected);
          const counter = `${control.id} ${expected}`;
          expectedCounts.set(counter, (expectedCounts.get(counter) ?? 0) + 1);
        }
      }
      client.eventsClient.sendQueue();
      const counted = new Map<string, number>();
      for (let attempt = 0; attempt < 50; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        await h.app.sdk.ingestion.flush();
        const rows = await h.database.db
          .select({
            id: impressionCounters.featureControlId,
            variant: impressionCounters.variantKey,
            count: sql<number>`sum(${impressionCounters.count})::int`,
          })
          .from(impressionCounters)
          .groupBy(impressionCounters.featureControlId, impressionCounters.variantKey);
        counted.clear();
        for (const row of rows) counted.set(`${row.id} ${row.variant}`, row.count);
        if ([...counted.values()].reduce((a, b) => a + b, 0) >= 3000) break;
      }
      expect(Object.fromEntries(counted)).toEqual(Object.fromEntries(expectedCounts));
      const registered = await team.admin.call('GET', '/api/v1/projects/shop/features/registered-by-sdk');
      expect(registered.statusCode).toBe(200);
      expect(registered.json<Feature>().controls.development!.available).toBe(true);
      const [{ total }] = (await h.database.db
        .select({ total: sql<number>`count(*)::int` })
        .from(impressionCounters)
        .where(eq(impressionCounters.organisationId, team.admin.organisationId))) as [{ total: number }];
      expect(total).toBeGreaterThan(0);
    } finally {
      // With polling off (interval 0) the SDK has no poller to close; its event timer it has.
      if (typeof client.close === 'function') client.close();
      client.eventsClient.close();
    }
  });
});

describe('OpenFeature server SDK with the OFREP provider', () => {
  it('resolves typed values with the engine’s variant and reason', async () => {
    await OpenFeature.setProviderAndWait(
      new OFREPProvider({ baseUrl: address, headers: [['Authorization', `Bearer ${development.apiKey}`]] }),
    );
    const client = OpenFeature.getClient();
    const gold = await client.getStringDetails('feature-0', 'default', {
      targetingKey: 'user-3',
      tier: 'gold',
    });
    expect(gold).toMatchObject({ value: 'on', variant: 'on', reason: 'TARGETING_MATCH' });
    const split = await client.getStringDetails('feature-0', 'default', {
      targetingKey: 'user-1',
      tier: 'silver',
    });
    const control = features[0]!.controls.development!;
    const expected = evaluate(
      {
        key: 'feature-0',
        enabled: true,
        offVariantKey: control.offVariantKey,
        rules: control.rules,
      } as EvaluableControl,
      { id: 'user-1', attributes: { tier: 'silver' } },
      new Date(),
    );
    expect(split).toMatchObject({ value: expected.variant, variant: expected.variant, reason: 'SPLIT' });
    // A variant with a JSON value resolves as an object.
    let blue: { value: unknown; variant?: string } | null = null;
    for (let i = 0; i < 200 && !blue; i++) {
      const details = await client.getObjectDetails('feature-2', {}, { targetingKey: `user-${i}` });
      if (details.variant === 'blue') blue = details;
    }
    expect(blue).toMatchObject({ value: { colour: '#00f' }, variant: 'blue' });
    const missing = await client.getBooleanDetails('no-such-flag', true, { targetingKey: 'u' });
    expect(missing).toMatchObject({ value: true, errorCode: 'FLAG_NOT_FOUND' });
  });

  it('hands the application the reason a key is refused (401, 403) with the provider’s error', async () => {
    const refusals: [string, string][] = [
      ['sdk-srv-env-00000000000000000000000000000000', OFREP_KEY_INVALID],
      [development.jsApiKey, OFREP_JS_KEY],
    ];
    for (const [key, reason] of refusals) {
      await OpenFeature.setProviderAndWait(
        new OFREPProvider({ baseUrl: address, headers: [['Authorization', `Bearer ${key}`]] }),
      );
      // The provider throws on 401/403 before reading the body; its error keeps the response.
      const errors: unknown[] = [];
      const client = OpenFeature.getClient().addHooks({
        error: (_context, error) => void errors.push(error),
      });
      const details = await client.getBooleanDetails('feature-0', false, { targetingKey: 'u' });
      expect(details).toMatchObject({ value: false, errorCode: 'GENERAL' });
      expect(errors).toHaveLength(1);
      const { response } = errors[0] as { response: Response };
      expect(await response.json()).toEqual({ key: 'feature-0', errorCode: 'GENERAL', errorDetails: reason });
    }
  });
});
