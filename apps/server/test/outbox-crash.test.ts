/**
 * Issue #31's fault test: the server is killed (SIGKILL) after changes committed and before their
 * webhooks were delivered, and started again on the same data (docs/adr/0023-durable-queue.md,
 * Consequences). The real server runs as a process of its own (server-process.ts), on an embedded
 * database in a data directory, or on PostgreSQL in the `server-pg` project.
 *
 * While the first process runs, the receiver is down (it closes every connection), so each delivery's
 * first attempt fails and is put off for its first retry (10 s); the process is killed once every
 * attempt is recorded, with nothing in flight, so the run is the same every time. After the restart,
 * with the receiver back, every change's webhook arrives once, under the webhook-id it had before the
 * kill, and the fan-out ran once: one delivery row per webhook per change, one attempt per change job.
 * (Killed before the fan-out ran: outbox-crash.pg.test.ts.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Feature, Webhook, WebhookDelivery } from '@vexil/core';
import { openDatabase, type Database } from '../src/db/client';
import { CHANGE_JOB } from '../src/modules/integrations/change-jobs';
import { WEBHOOK_RETRY_DELAYS_S } from '../src/modules/integrations/webhooks.service';
import * as queue from '../src/modules/queue/queue.repository';
import { testDatabaseKind } from './database-url';
import {
  killAll,
  signInAdmin,
  startServerProcess,
  webhookReceiver,
  type HttpCaller,
  type ServerProcess,
} from './server-process';
import { openTestDatabase, type TestDatabase } from './test-database';

/** The toggles made before the kill, each a change passed on to both webhooks. */
const TOGGLES = [true, false, true];

let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
let database: TestDatabase | undefined;
let dataDir: string | undefined;
let first: ServerProcess;
let call: HttpCaller;
let hooks: Webhook[];
let controlId: string;

/** Where the server keeps its data: a data directory, or the PostgreSQL test database. */
const storage = () => (database ? { DATABASE_URL: database.url! } : { DATA_DIR: dataDir! });

/** The server's data, read from this process (PGlite: once the server has stopped). */
async function withData<T>(read: (db: Database) => Promise<T>): Promise<T> {
  if (database) return read(database.db);
  const handle = openDatabase({ kind: 'pglite', dataDir: dataDir! });
  try {
    return await read(handle.db);
  } finally {
    await handle.close();
  }
}

async function deliveries(via: HttpCaller, hook: Webhook): Promise<WebhookDelivery[]> {
  const res = await via<WebhookDelivery[]>('GET', `/api/v1/projects/web/webhooks/${hook.id}/deliveries`);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

async function allDeliveries(via: HttpCaller): Promise<WebhookDelivery[]> {
  return (await Promise.all(hooks.map((hook) => deliveries(via, hook)))).flat();
}

beforeAll(async () => {
  receiver = await webhookReceiver();
  if (testDatabaseKind() === 'pg') database = await openTestDatabase();
  else dataDir = mkdtempSync(path.join(os.tmpdir(), 'vexil-crash-'));
  // The first start (PostgreSQL's files created, migrations run) is the slow one: not part of the test.
  first = await startServerProcess(storage());
  call = await signInAdmin(first);
  const project = await call('POST', '/api/v1/projects/', { name: 'Web shop', key: 'web' });
  expect(project.status, project.text).toBe(201);
  const feature = await call<Feature>('POST', '/api/v1/projects/web/features', {
    name: 'Checkout',
    key: 'checkout',
  });
  expect(feature.status, feature.text).toBe(201);
  controlId = feature.body.controls.development!.id;
  hooks = [];
  for (const name of ['a', 'b']) {
    const hook = await call<Webhook>('POST', '/api/v1/projects/web/webhooks', {
      url: receiver.url(`/${name}`),
      description: `Receiver ${name}`,
      events: ['feature.toggled'],
    });
    expect(hook.status, hook.text).toBe(201);
    hooks.push(hook.body);
  }
});

afterAll(async () => {
  await killAll();
  await receiver?.close();
  await database?.destroy();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('a server killed after a change committed and before its webhook was delivered', () => {
  it('delivers each change’s webhook after the restart, once per webhook-id, from one fan-out', async () => {
    receiver.setDown(true);
    for (const enabled of TOGGLES) {
      const res = await call('PUT', `/api/v1/feature-controls/${controlId}/enabled`, { enabled });
      expect(res.status, res.text).toBe(200);
    }
    const expected = TOGGLES.length * hooks.length;

    // Every delivery written and tried once, and put off: nothing is in flight when the process dies.
    await expect
      .poll(
        async () =>
          (await allDeliveries(call)).filter((d) => d.status === 'pending' && d.attempts === 1).length,
        { timeout: 8_000, interval: 100 },
      )
      .toBe(expected);
    const before = await allDeliveries(call);
    expect(before).toHaveLength(expected);
    for (const delivery of before) {
      expect(delivery).toMatchObject({ responseCode: null, error: 'Could not connect.' });
      const wait = Date.parse(delivery.nextAttemptDate!) - Date.parse(delivery.createdDate);
      expect(wait).toBeGreaterThanOrEqual(WEBHOOK_RETRY_DELAYS_S[0]! * 1000);
    }
    expect(receiver.refused()).toBeGreaterThanOrEqual(expected);
    expect(receiver.received).toHaveLength(0);

    expect(await first.kill()).toBe('SIGKILL');

    const second = await startServerProcess(storage());
    receiver.setDown(false);
    const again = await signInAdmin(second);

    // The deliveries come due 10 s after their failed attempt; the worker looks every 5 s.
    const ids = before.map((d) => d.messageId);
    await expect
      .poll(() => ids.filter((id) => receiver.count(id) > 0).length, { timeout: 20_000, interval: 100 })
      .toBe(expected);
    // Settled: every delivery recorded as succeeded, so none is sent again.
    await expect
      .poll(async () => (await allDeliveries(again)).filter((d) => d.status === 'succeeded').length, {
        timeout: 5_000,
        interval: 100,
      })
      .toBe(expected);

    // Once per webhook-id, and only the ids written before the kill: the fan-out did not run again.
    expect(receiver.received.map((r) => r.id).sort()).toEqual([...ids].sort());
    expect(new Set(ids).size).toBe(expected);
    for (const hook of hooks) {
      const rows = await deliveries(again, hook);
      expect(rows).toHaveLength(TOGGLES.length);
      for (const row of rows) {
        expect(row).toMatchObject({ status: 'succeeded', attempts: 2, responseCode: 200, error: null });
        const arrived = receiver.received.find((r) => r.id === row.messageId)!;
        expect(arrived.path).toBe(`/${hook === hooks[0] ? 'a' : 'b'}`);
        expect(JSON.parse(arrived.body)).toMatchObject({ type: 'feature.toggled' });
      }
    }

    await second.stop();
    const jobs = (await withData((db) => queue.listJobs(db, CHANGE_JOB))).filter(
      (job) => (job.payload as { change: { kind: string } }).change.kind === 'feature.toggled',
    );
    expect(jobs.map((job) => ({ state: job.state, attempts: job.attempts }))).toEqual(
      TOGGLES.map(() => ({ state: 'done', attempts: 1 })),
    );
  });
});
