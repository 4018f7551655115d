/**
 * Issue #31's fault test, the kill landing before the fan-out (docs/adr/0023-durable-queue.md,
 * Consequences: "an instance that stops after the commit leaves a pending job that any instance
 * takes; one that stops during an attempt leaves a running job that comes back when its lease ends").
 * The real server runs as a process of its own (server-process.ts) on PostgreSQL. The test holds a
 * lock on `webhook_deliveries` from a connection of its own, so that the first change's fan-out (which
 * inserts that change's deliveries) waits inside its transaction. The changes made next are of the
 * same organisation, the fan-out's lane: the worker takes them until its slots are full
 * (`QUEUE_CONCURRENCY`, counting the jobs waiting behind the held one), and the ones after that commit
 * with their jobs pending, never taken. The process is then killed (SIGKILL) and started again: the
 * pending jobs are fanned out once, and their webhooks arrive once each. The jobs taken keep their
 * leases (2 min); the test moves the leases' end into the past instead of waiting, and those changes'
 * webhooks then arrive once too. Runs in the PostgreSQL project only: PGlite has one connection, which
 * a second one cannot hold a lock against.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { inArray, sql } from 'drizzle-orm';
import type { Feature, Webhook, WebhookDelivery } from '@vexil/core';
import { jobs as jobsTable } from '../src/db/schema/index';
import { CHANGE_JOB } from '../src/modules/integrations/change-jobs';
import * as queue from '../src/modules/queue/queue.repository';
import { QUEUE_CONCURRENCY } from '../src/modules/queue/queue.service';
import {
  killAll,
  signInAdmin,
  startServerProcess,
  webhookReceiver,
  type HttpCaller,
  type ServerProcess,
} from './server-process';
import { openTestDatabase, type TestDatabase } from './test-database';

let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
let database: TestDatabase;
let lock: pg.Client | undefined;
let first: ServerProcess;
let call: HttpCaller;
let hook: Webhook;
let controlId: string;

/** The toggle jobs, oldest first. */
async function toggleJobs() {
  return (await queue.listJobs(database.db, CHANGE_JOB)).filter(
    (job) => (job.payload as { change: { kind: string } }).change.kind === 'feature.toggled',
  );
}

/**
 * How many of the server's statements wait for a lock on `webhook_deliveries` (the held fan-out). Read
 * on the test's own connections: the locking one, in its transaction, would see one snapshot throughout.
 */
async function waitingInserts(): Promise<number> {
  const result = await database.db.execute(
    sql`select count(*)::int as n from pg_stat_activity
         where datname = current_database() and wait_event_type = 'Lock'
           and query ilike 'insert into "webhook_deliveries"%'`,
  );
  return (result as unknown as { rows: { n: number }[] }).rows[0]!.n;
}

async function toggle(enabled: boolean) {
  const res = await call('PUT', `/api/v1/feature-controls/${controlId}/enabled`, { enabled });
  expect(res.status, res.text).toBe(200);
}

beforeAll(async () => {
  receiver = await webhookReceiver();
  database = await openTestDatabase();
  expect(database.kind).toBe('postgres');
  first = await startServerProcess({ DATABASE_URL: database.url! });
  call = await signInAdmin(first);
  const project = await call('POST', '/api/v1/projects/', { name: 'Web shop', key: 'web' });
  expect(project.status, project.text).toBe(201);
  const feature = await call<Feature>('POST', '/api/v1/projects/web/features', {
    name: 'Checkout',
    key: 'checkout',
  });
  expect(feature.status, feature.text).toBe(201);
  controlId = feature.body.controls.development!.id;
  const created = await call<Webhook>('POST', '/api/v1/projects/web/webhooks', {
    url: receiver.url('/hooks'),
    description: 'Counter',
    events: ['feature.toggled'],
  });
  expect(created.status, created.text).toBe(201);
  hook = created.body;
});

afterAll(async () => {
  await lock?.end();
  await killAll();
  await receiver?.close();
  await database?.destroy();
});

describe('a server killed after changes committed and before they were fanned out', () => {
  it('fans each pending change out once after the restart, and delivers each webhook once', async () => {
    // The feature's creation, passed on before: its job is done, so the worker is idle.
    await expect
      .poll(async () => (await queue.listJobs(database.db, CHANGE_JOB)).every((j) => j.state === 'done'), {
        timeout: 5_000,
      })
      .toBe(true);

    lock = new pg.Client({ connectionString: database.url! });
    await lock.connect();
    await lock.query('begin');
    await lock.query('lock table webhook_deliveries in share mode');

    // The first change's fan-out is taken and waits for the lock inside its transaction.
    await toggle(true);
    await expect.poll(waitingInserts, { timeout: 5_000, interval: 50 }).toBe(1);

    // The next changes commit with their jobs. The worker takes those it has slots for, which wait
    // behind the held fan-out in their lane (none begins: one insert waits); the last three it leaves
    // pending.
    const taken = QUEUE_CONCURRENCY;
    const changes = taken + 3;
    const toggles = Array.from({ length: changes }, (_, i) => i % 2 === 0);
    const later = toggles.slice(taken);
    for (const enabled of toggles.slice(1)) await toggle(enabled);
    await expect
      .poll(async () => (await toggleJobs()).filter((job) => job.state === 'running').length, {
        timeout: 5_000,
        interval: 50,
      })
      .toBe(taken);
    let jobs = await toggleJobs();
    expect(jobs.map((job) => ({ state: job.state, attempts: job.attempts }))).toEqual([
      ...jobs.slice(0, taken).map(() => ({ state: 'running', attempts: 1 })),
      ...later.map(() => ({ state: 'pending', attempts: 0 })),
    ]);
    expect(await waitingInserts()).toBe(1);

    expect(await first.kill()).toBe('SIGKILL');
    // The held fan-out's transaction never committed: it ends with its connection.
    await lock.query('rollback');
    await lock.end();
    lock = undefined;

    const second = await startServerProcess({ DATABASE_URL: database.url! });
    const again = await signInAdmin(second);

    await expect.poll(() => receiver.received.length, { timeout: 15_000, interval: 100 }).toBe(later.length);
    const rows = async () => {
      const res = await again<WebhookDelivery[]>(
        'GET',
        `/api/v1/projects/web/webhooks/${hook.id}/deliveries`,
      );
      expect(res.status, res.text).toBe(200);
      return res.body;
    };
    await expect
      .poll(async () => (await rows()).filter((d) => d.status === 'succeeded').length, {
        timeout: 5_000,
        interval: 100,
      })
      .toBe(later.length);

    // One delivery per pending change (none for those taken before the kill), each sent once under its id.
    const delivered = await rows();
    expect(delivered).toHaveLength(later.length);
    expect(delivered.every((d) => d.attempts === 1)).toBe(true);
    expect(receiver.received.map((r) => r.id).sort()).toEqual(delivered.map((d) => d.messageId).sort());
    const enabled = receiver.received.map(
      (r) => (JSON.parse(r.body) as { data: { enabled: boolean } }).data.enabled,
    );
    expect(enabled.sort()).toEqual([...later].sort());

    // The pending jobs ran once, on the second process; those taken before the kill wait for their
    // leases.
    jobs = await toggleJobs();
    expect(jobs.map((job) => ({ state: job.state, attempts: job.attempts }))).toEqual([
      ...jobs.slice(0, taken).map(() => ({ state: 'running', attempts: 1 })),
      ...later.map(() => ({ state: 'done', attempts: 1 })),
    ]);
    for (const job of jobs.slice(0, taken)) expect(job.lockedUntil!.getTime()).toBeGreaterThan(Date.now());
    for (const job of jobs.slice(taken)) {
      const attempts = await queue.listAttempts(database.db, job.id);
      expect(attempts.map((a) => ({ attempt: a.attempt, outcome: a.outcome }))).toEqual([
        { attempt: 1, outcome: 'done' },
      ]);
    }

    // Their leases run out (moved into the past rather than waited for, 2 min): the worker's next look
    // (every 5 s) takes them again, and those changes' webhooks arrive too, once each.
    await database.db
      .update(jobsTable)
      .set({ lockedUntil: new Date(Date.now() - 1_000) })
      .where(
        inArray(
          jobsTable.id,
          jobs.slice(0, taken).map((job) => job.id),
        ),
      );
    await expect.poll(() => receiver.received.length, { timeout: 10_000, interval: 100 }).toBe(changes);
    await expect
      .poll(async () => (await rows()).filter((d) => d.status === 'succeeded').length, {
        timeout: 5_000,
        interval: 100,
      })
      .toBe(changes);
    const all = await rows();
    expect(all).toHaveLength(changes);
    expect(receiver.received.map((r) => r.id).sort()).toEqual(all.map((d) => d.messageId).sort());
    jobs = await toggleJobs();
    expect(jobs.map((job) => ({ state: job.state, attempts: job.attempts }))).toEqual([
      ...jobs.slice(0, taken).map(() => ({ state: 'done', attempts: 2 })),
      ...later.map(() => ({ state: 'done', attempts: 1 })),
    ]);
    // The interrupted attempts are recorded when their leases ran out and the jobs were taken again;
    // the second attempts did the work. The jobs that waited behind the held fan-out had not begun
    // theirs, but their claims counted them, and they are recorded alike.
    for (const job of jobs.slice(0, taken))
      expect(
        (await queue.listAttempts(database.db, job.id)).map((a) => ({
          attempt: a.attempt,
          outcome: a.outcome,
          error: a.error,
        })),
      ).toEqual([
        { attempt: 1, outcome: 'retry', error: queue.INTERRUPTED_ATTEMPT },
        { attempt: 2, outcome: 'done', error: null },
      ]);
    await second.stop();
  });
});
