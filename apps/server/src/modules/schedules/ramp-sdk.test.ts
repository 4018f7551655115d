/**
 * A ramp is monotone for the published SDK too (docs/adr/0025-scheduler.md): a ramp of "on" over the
 * default rule in 20 steps from 1 to 100 %, advanced step by step; after each, featureflow-node-sdk
 * reads the environment's payload and evaluates 10,000 users. Every user who got "on" keeps it at every
 * later step, and the SDK answers what core's engine answers for the control.
 */
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate, type Environment, type Project, type Schedule } from '@vexil/core';
import { createTeam, type Team } from '../../../test/api';
import { controlOf } from '../../../test/change-requests';
import { controlBody, createFeature, otherwise } from '../../../test/features';
import { createHarness, type Harness } from '../../../test/helpers';
import { act, schedule, scheduleOf } from '../../../test/schedules';

type FeatureflowClient = { evaluate(key: string, user: unknown): { value(): string } };
type FeatureflowModule = {
  Client: new (
    config: Record<string, unknown>,
    callback: (error: unknown, client: FeatureflowClient) => void,
  ) => unknown;
  UserBuilder: new (id: string) => { build(): unknown };
};
const Featureflow = createRequire(import.meta.url)('featureflow-node-sdk') as FeatureflowModule;

const USERS = Array.from({ length: 10_000 }, (_, i) => `user-${i}`);
const COVERAGES = [1, ...Array.from({ length: 19 }, (_, i) => (i + 2) * 5)];

let h: Harness;
let team: Team;
let development: Environment;
let address: string;

beforeAll(async () => {
  h = await createHarness();
  team = await createTeam(h);
  const project = (
    await team.admin.call('POST', '/api/v1/projects/', { name: 'Web shop', key: 'web' })
  ).json<Project>();
  development = project.environments.find((e) => e.key === 'development')!;
  await createFeature(team.admin.call, 'web', { name: 'Checkout', key: 'checkout' });
  const control = await controlOf(team.admin.call, 'development');
  await team.admin.call(
    'PUT',
    '/api/v1/feature-controls/',
    controlBody(control, { enabled: true, rules: [otherwise('off')] }),
  );
  address = await h.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await h.close();
});

/** A client that has just read the environment's payload. */
function freshClient(): Promise<FeatureflowClient> {
  return new Promise((resolve, reject) => {
    new Featureflow.Client(
      {
        apiKey: development.apiKey,
        baseUrl: address,
        eventsUrl: address,
        interval: 0,
        streaming: false,
        // 200,000 evaluations' events would only load the server: what is checked is the answers.
        disableEvents: true,
      },
      (error, client) => (error ? reject(error as Error) : resolve(client)),
    );
  });
}

describe('a ramp of 20 steps from 1 to 100 %', () => {
  it('never takes the variant from a user who got it, as featureflow-node-sdk evaluates the payload', async () => {
    expect(COVERAGES).toHaveLength(20);
    expect(COVERAGES.at(-1)).toBe(100);
    const ramp = await schedule(team.admin.call, {
      kind: 'ramp',
      featureKey: 'checkout',
      environmentKey: 'development',
      ruleIndex: 0,
      variantKey: 'on',
      steps: COVERAGES.map((coverage) => ({ coverage, holdSeconds: 3600 })),
    });
    let served = new Set<string>();
    for (const [index, coverage] of COVERAGES.entries()) {
      if (index === 0) await h.app.services.queue.settled();
      else expect((await act(team.admin.call, ramp.id, 'advance')).json<Schedule>().currentStep).toBe(index);
      await h.app.sdk.store.settled();
      const control = await controlOf(team.admin.call, 'development');
      expect(control.rules[0]!.variantSplits[0]).toEqual({ variantKey: 'on', split: coverage });
      const client = await freshClient();
      const now = new Date();
      const next = new Set<string>();
      const disagreements: string[] = [];
      for (const [i, id] of USERS.entries()) {
        const variant = client.evaluate('checkout', new Featureflow.UserBuilder(id).build()).value();
        if (variant === 'on') next.add(id);
        // The engine for one user in ten: the SDK's answers are what is checked for all.
        if (i % 10 !== 0) continue;
        const engine = evaluate(
          { key: 'checkout', enabled: true, offVariantKey: control.offVariantKey, rules: control.rules },
          { id },
          now,
        );
        if (variant !== engine.variant) disagreements.push(id);
      }
      expect(disagreements, `SDK and engine at ${coverage} %`).toEqual([]);
      expect(
        [...served].filter((id) => !next.has(id)),
        `users who lost "on" at ${coverage} %`,
      ).toEqual([]);
      expect(Math.abs(next.size / USERS.length - coverage / 100)).toBeLessThan(0.03);
      served = next;
    }
    expect(served.size).toBe(USERS.length);
  }, 120_000);
});

describe('the running scheduler, on the real clock', () => {
  it('applies a one-off change due in half a second by itself, and the SDK reads it', async () => {
    await createFeature(team.admin.call, 'web', { name: 'Banner', key: 'banner' });
    const at = new Date(Date.now() + 500).toISOString();
    const once = await schedule(team.admin.call, {
      kind: 'once',
      featureKey: 'banner',
      environmentKey: 'development',
      at,
      change: { enabled: true },
    });
    await expect
      .poll(async () => (await scheduleOf(team.admin.call, once.id)).state, { timeout: 10_000, interval: 50 })
      .toBe('completed');
    await h.app.sdk.store.settled();
    const client = await freshClient();
    expect(client.evaluate('banner', new Featureflow.UserBuilder('user-1').build()).value()).toBe('on');
  });
});
