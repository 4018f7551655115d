/**
 * Issue #33's fault test (docs/adr/0025-scheduler.md): a server killed (SIGKILL) after its worker
 * claimed a schedule's step and before the step's transaction committed. The real server runs as a
 * process of its own on PostgreSQL. The test holds a lock on the feature's control row from a
 * connection of its own once the schedule is made, so the step, once claimed, waits inside its transaction; the process is then
 * killed, the lock released, and a new process started. The claimed job keeps its lease (2 min): the
 * test moves the lease's end into the past instead of waiting, and the step is then applied once —
 * one version with source `schedule`, one audit entry, the schedule completed. Runs in the PostgreSQL
 * project only: PGlite has one connection, which a second one cannot hold a lock against.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import type { Feature, Schedule, VersionPage } from '@vexil/core';
import { jobs as jobsTable } from '../src/db/schema/index';
import * as queue from '../src/modules/queue/queue.repository';
import { SCHEDULE_JOB } from '../src/modules/schedules/schedules.service';
import {
  killAll,
  signInAdmin,
  startServerProcess,
  type HttpCaller,
  type ServerProcess,
} from './server-process';
import { openTestDatabase, type TestDatabase } from './test-database';

let database: TestDatabase;
let lock: pg.Client | undefined;
let first: ServerProcess;
let call: HttpCaller;
let controlId: string;

/** How many of the server's statements wait for a lock on a feature control's row. */
async function waitingForControl(): Promise<number> {
  const result = await database.db.execute(
    sql`select count(*)::int as n from pg_stat_activity
         where datname = current_database() and wait_event_type = 'Lock'
           and query ilike '%from "feature_controls"%for update%'`,
  );
  return (result as unknown as { rows: { n: number }[] }).rows[0]!.n;
}

beforeAll(async () => {
  database = await openTestDatabase();
  expect(database.kind).toBe('postgres');
  first = await startServerProcess({ DATABASE_URL: database.url! });
  call = await signInAdmin(first);
  expect((await call('POST', '/api/v1/projects/', { name: 'Web shop', key: 'web' })).status).toBe(201);
  const feature = await call<Feature>('POST', '/api/v1/projects/web/features', {
    name: 'Checkout',
    key: 'checkout',
  });
  expect(feature.status, feature.text).toBe(201);
  controlId = feature.body.controls.development!.id;
});

afterAll(async () => {
  await lock?.end();
  await killAll();
  await database?.destroy();
});

describe('a server killed between claiming a step and committing it', () => {
  it('applies the step once after the restart', async () => {
    const at = new Date(Date.now() + 3_000).toISOString();
    const created = await call<Schedule>('POST', '/api/v1/projects/web/schedules', {
      kind: 'once',
      featureKey: 'checkout',
      environmentKey: 'development',
      at,
      change: { enabled: true },
    });
    expect(created.status, created.text).toBe(201);
    // Locked after the schedule was made (its row refers to the control's, which an insert must share).
    lock = new pg.Client({ connectionString: database.url! });
    await lock.connect();
    await lock.query('begin');
    await lock.query('select id from feature_controls where id = $1 for update', [controlId]);

    // The step falls due, is claimed, and waits for the control's row inside its transaction.
    await expect.poll(waitingForControl, { timeout: 10_000, interval: 50 }).toBe(1);
    const [claimed] = await queue.listJobs(database.db, SCHEDULE_JOB);
    expect(claimed).toMatchObject({ state: 'running', attempts: 1 });

    expect(await first.kill()).toBe('SIGKILL');
    await lock.query('rollback');
    await lock.end();
    lock = undefined;

    const second = await startServerProcess({ DATABASE_URL: database.url! });
    const again = await signInAdmin(second);
    // Nothing was written: the killed transaction never committed.
    const before = await again<VersionPage>(
      'GET',
      '/api/v1/projects/web/features/checkout/versions?environmentKey=development',
    );
    expect(before.body.content.filter((v) => v.source === 'schedule')).toEqual([]);

    // The lease runs out (moved into the past rather than waited for): the new worker takes the job.
    await database.db
      .update(jobsTable)
      .set({ lockedUntil: new Date(Date.now() - 1_000) })
      .where(sql`${jobsTable.id} = ${claimed!.id}`);
    const state = async () =>
      (await again<Schedule>('GET', `/api/v1/projects/web/schedules/${created.body.id}`)).body;
    await expect
      .poll(async () => (await state()).state, { timeout: 15_000, interval: 100 })
      .toBe('completed');

    const versions = await again<VersionPage>(
      'GET',
      '/api/v1/projects/web/features/checkout/versions?environmentKey=development',
    );
    expect(versions.body.content.filter((v) => v.source === 'schedule')).toHaveLength(1);
    expect((await state()).history!.filter((e) => e.kind === 'applied')).toHaveLength(1);
    const attempts = await queue.listAttempts(database.db, claimed!.id);
    expect(attempts.map((a) => a.outcome)).toEqual(['retry', 'done']);
  }, 60_000);
});
