/**
 * Two server instances on one PostgreSQL share the durable queue (docs/adr/0023-durable-queue.md):
 * 200 toggles made through both, each passed on once — the receiver counts every webhook-id exactly
 * once. Runs in the PostgreSQL project only.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Feature } from '@vexil/core';
import { buildApp } from '../src/app';
import { openDatabase } from '../src/db/client';
import { CHANGE_JOB } from '../src/modules/integrations/change-jobs';
import * as queue from '../src/modules/queue/queue.repository';
import { callerFor, createTeam, type Caller, type Team } from './api';
import { createHarness, testConfig, type Harness, type TestApp } from './helpers';
import { FAST_INTEGRATIONS, integrationsEnv } from './integrations';
import { sdkFixture } from './sdk';

let h: Harness;
let second: TestApp;
let team: Team;
/** How many times each webhook-id reached the receiver. */
const seen = new Map<string, number>();
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const id = String(req.headers['webhook-id']);
    seen.set(id, (seen.get(id) ?? 0) + 1);
    res.end('thanks');
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  h = await createHarness(integrationsEnv(), { integrations: FAST_INTEGRATIONS });
  expect(h.database.kind).toBe('postgres');
  second = await buildApp({
    config: testConfig(integrationsEnv()),
    database: openDatabase({ kind: 'postgres', url: h.database.url!, max: 4 }),
    logger: false,
    integrations: FAST_INTEGRATIONS,
  });
  await second.ready();
  team = await createTeam(h);
});
afterAll(async () => {
  await second?.close();
  await h?.close();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

async function toggleMany(call: Caller, controlId: string, times: number) {
  for (let i = 0; i < times; i++) {
    const res = await call('PUT', `/api/v1/feature-controls/${controlId}/enabled`, { enabled: i % 2 === 0 });
    expect(res.statusCode, res.body).toBe(200);
  }
}

describe('the durable queue on two instances', () => {
  it('delivers each of 200 toggles’ webhooks exactly once', async () => {
    const fixture = await sdkFixture(team.admin.call);
    const hook = await team.admin.call('POST', '/api/v1/projects/web/webhooks', {
      url: `http://localhost:${(receiver.address() as AddressInfo).port}/hooks`,
      description: 'Counter',
      events: ['feature.toggled'],
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const feature = (await team.admin.call('GET', '/api/v1/projects/web/features/checkout')).json<Feature>();
    const secondCall = callerFor(second, await h.login(team.admin));

    // 100 toggles through each instance, side by side: each instance's worker wakes for its own.
    await Promise.all([
      toggleMany(team.admin.call, feature.controls.development!.id, 100),
      toggleMany(secondCall, feature.controls.production!.id, 100),
    ]);
    await expect.poll(() => seen.size, { timeout: 60_000, interval: 100 }).toBe(200);
    await Promise.all([h.app.services.integrations.settled(), second.services.integrations.settled()]);

    expect([...seen.values()].every((count) => count === 1)).toBe(true);
    expect(seen.size).toBe(200);
    const toggles = (await queue.listJobs(h.database.db, CHANGE_JOB)).filter(
      (job) => (job.payload as { change: { kind: string } }).change.kind === 'feature.toggled',
    );
    expect(toggles).toHaveLength(200);
    expect(toggles.every((job) => job.state === 'done' && job.attempts === 1)).toBe(true);
    expect(fixture.checkout.key).toBe('checkout');
  });
});
