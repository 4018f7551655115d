/**
 * A ramp's arms with the published server SDK (docs/adr/0026-guarded-rollouts.md): featureflow-node-sdk
 * evaluates users on a control whose first rule sends Germany "off" and whose default rule is ramped to
 * "on". Its own evaluate events are the exposures. Only the default rule's users count, each once, in
 * the arm of the variant they were first served, exactly; a user first seen at one step keeps that arm
 * at the next.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Environment, Project, Schedule } from '@vexil/core';
import { createTeam, type Team } from '../../../test/api';
import { controlOf } from '../../../test/change-requests';
import { controlBody, createFeature, otherwise, rule } from '../../../test/features';
import { createHarness, type Harness } from '../../../test/helpers';
import { Featureflow, nodeSdkClient } from '../../../test/node-sdk';
import { testClock } from '../../../test/integrations';
import { elapse, schedule, scheduleOf } from '../../../test/schedules';

const clock = testClock();
let h: Harness;
let team: Team;
let development: Environment;
let address: string;

beforeAll(async () => {
  h = await createHarness({}, { now: clock.now });
  team = await createTeam(h);
  const project = (
    await team.admin.call('POST', '/api/v1/projects/', { name: 'Web shop', key: 'web' })
  ).json<Project>();
  development = project.environments.find((e) => e.key === 'development')!;
  await createFeature(team.admin.call, 'web', { name: 'Checkout', key: 'checkout' });
  await team.admin.call('POST', '/api/v1/projects/web/targets', { key: 'country', name: 'Country' });
  const control = await controlOf(team.admin.call, 'development');
  const saved = await team.admin.call(
    'PUT',
    '/api/v1/feature-controls/',
    controlBody(control, {
      enabled: true,
      rules: [rule('country', 'equals', ['DE'], [{ variantKey: 'off', split: 100 }]), otherwise('off')],
    }),
  );
  expect(saved.statusCode, saved.body).toBe(200);
  address = await h.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await h.close();
});

/**
 * Evaluates users `from`..`to` - 1 (every third in Germany, every seventh twice) with a fresh client and
 * sends its events. What each user was first served, by arm; `firstArm` carries users already seen.
 */
async function evaluateUsers(from: number, to: number, firstArm: Map<string, 'treatment' | 'control'>) {
  const client = await nodeSdkClient(address, development.apiKey);
  const tally = { treatment: 0, control: 0, germany: 0 };
  try {
    for (let i = from; i < to; i++) {
      const id = `shopper-${i}`;
      const builder = new Featureflow.UserBuilder(id);
      const user = i % 3 === 0 ? builder.withAttribute('country', 'DE').build() : builder.build();
      const variant = client.evaluate('checkout', user).value();
      if (i % 7 === 0) client.evaluate('checkout', user).value();
      if (i % 3 === 0) {
        expect(variant).toBe('off');
        tally.germany += 1;
      } else if (!firstArm.has(id)) {
        const arm = variant === 'on' ? 'treatment' : 'control';
        firstArm.set(id, arm);
        tally[arm] += 1;
      }
    }
    client.eventsClient.sendQueue();
  } finally {
    if (typeof client.close === 'function') client.close();
    client.eventsClient.close();
  }
  return tally;
}

/** The ramp's arms once the server has stored what was sent: polled until they are `expected`. */
async function armsBecome(id: string, expected: Schedule['arms']) {
  await expect
    .poll(
      async () => {
        await h.app.sdk.ingestion.flush();
        return (await scheduleOf(team.admin.call, id)).arms;
      },
      { timeout: 20_000, interval: 100 },
    )
    .toEqual(expected);
}

describe('a ramp’s arms', () => {
  it('count the ramped rule’s users once each, in the arm of their first exposure, exactly', async () => {
    const ramp = await schedule(team.admin.call, {
      kind: 'ramp',
      featureKey: 'checkout',
      environmentKey: 'development',
      ruleIndex: 1,
      variantKey: 'on',
      steps: [
        { coverage: 50, holdSeconds: 60 },
        { coverage: 100, holdSeconds: 60 },
      ],
    });
    await elapse(h, clock, 0);
    await h.app.sdk.store.settled();
    expect((await scheduleOf(team.admin.call, ramp.id)).arms).toEqual({
      treatment: 0,
      control: 0,
      stepTreatment: 0,
      stepControl: 0,
    });

    const firstArm = new Map<string, 'treatment' | 'control'>();
    const first = await evaluateUsers(0, 1200, firstArm);
    // Half of the default rule's 800 users get "on", give or take the buckets.
    expect(first.treatment).toBeGreaterThan(300);
    expect(first.control).toBeGreaterThan(300);
    expect(first.germany).toBe(400);
    await armsBecome(ramp.id, {
      treatment: first.treatment,
      control: first.control,
      stepTreatment: first.treatment,
      stepControl: first.control,
    });

    // Step 2 serves everyone "on": the users seen before keep their arm, the new ones are treatment.
    await elapse(h, clock, 61_000);
    await h.app.sdk.store.settled();
    const second = await evaluateUsers(600, 1500, firstArm);
    expect(second.control).toBe(0);
    await armsBecome(ramp.id, {
      treatment: first.treatment + second.treatment,
      control: first.control,
      stepTreatment: second.treatment,
      stepControl: 0,
    });
    // 1,000 of the 1,500 users are outside Germany: each counted once.
    expect(first.treatment + second.treatment + first.control).toBe(1000);
  });
});
