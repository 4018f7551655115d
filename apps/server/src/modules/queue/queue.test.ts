/**
 * The durable queue on the real database (docs/adr/0023-durable-queue.md): jobs commit with the
 * transaction that adds them, run once, are retried with their kind's backoff and Retry-After, fail
 * for good after the last retry, and come back when the worker that took them stopped. A slow job
 * holds back only the later jobs of its lane, never the others.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { createHarness, type Harness } from '../../../test/helpers';
import type { JobOutcome } from './queue.types';
import * as repo from './queue.repository';
import { createQueue, QUEUE_CONCURRENCY } from './queue.service';

let h: Harness;
const queue = () => h.app.services.queue;
const db = () => h.database.db;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});
beforeEach(async () => {
  await queue().settled();
});

/** A kind of job no other test uses, with a handler that answers `outcomes` in turn (then ok). */
function kindAnswering(outcomes: (JobOutcome | Error)[], retryDelaysMs = [5, 5]) {
  const kind = `test.${randomUUID()}`;
  const runs: { payload: unknown; attempt: number; at: number }[] = [];
  queue().handle<{ n: number }>(kind, {
    retryDelaysMs,
    async run(job) {
      runs.push({ payload: job.payload, attempt: job.attempt, at: Date.now() });
      const next = outcomes.shift() ?? { ok: true };
      if (next instanceof Error) throw next;
      return next;
    },
  });
  return { kind, runs };
}

describe('the durable queue', () => {
  it('runs a job added in a committed transaction once, at once, and records the attempt', async () => {
    const { kind, runs } = kindAnswering([]);
    await db().transaction(async (tx) => {
      await queue().enqueue(tx, { kind, organisationId: null, payload: { n: 1 } });
    });
    await queue().settled();
    expect(runs).toMatchObject([{ payload: { n: 1 }, attempt: 1 }]);
    const [job] = await repo.listJobs(db(), kind);
    expect(job).toMatchObject({ state: 'done', attempts: 1, lastError: null, lockedUntil: null });
    expect(job!.finishedAt).toBeInstanceOf(Date);
    expect(await repo.listAttempts(db(), job!.id)).toMatchObject([
      { attempt: 1, outcome: 'done', error: null },
    ]);
  });

  it('adds nothing when the transaction that enqueued rolls back', async () => {
    const { kind, runs } = kindAnswering([]);
    await expect(
      db().transaction(async (tx) => {
        await queue().enqueue(tx, { kind, organisationId: null, payload: { n: 1 } });
        throw new Error('The change failed after its job was written');
      }),
    ).rejects.toThrow('The change failed');
    await queue().settled();
    expect(runs).toEqual([]);
    expect(await repo.listJobs(db(), kind)).toEqual([]);
  });

  it('adds a job once per dedupe key', async () => {
    const { kind, runs } = kindAnswering([]);
    const dedupeKey = `once:${randomUUID()}`;
    const first = await queue().enqueue(db(), { kind, organisationId: null, payload: { n: 1 }, dedupeKey });
    const again = await queue().enqueue(db(), { kind, organisationId: null, payload: { n: 2 }, dedupeKey });
    expect(first).toEqual(expect.any(String));
    expect(again).toBeNull();
    await queue().settled();
    expect(runs.map((run) => run.payload)).toEqual([{ n: 1 }]);
  });

  it('retries a handler that throws with its backoff, records each attempt, and finally fails it', async () => {
    const { kind, runs } = kindAnswering([
      new Error('Receiver down\nparams: secret-looking detail'),
      { ok: false, retry: true, reason: 'HTTP 503.' },
      new Error('Still down'),
    ]);
    await queue().enqueue(db(), { kind, organisationId: null, payload: { n: 1 } });
    await queue().settled();
    expect(runs.map((run) => run.attempt)).toEqual([1, 2, 3]);
    const [job] = await repo.listJobs(db(), kind);
    expect(job).toMatchObject({ state: 'failed', attempts: 3, lastError: 'Error: Still down' });
    const attempts = await repo.listAttempts(db(), job!.id);
    expect(attempts.map((attempt) => [attempt.attempt, attempt.outcome, attempt.error])).toEqual([
      [1, 'retry', 'Error: Receiver down'],
      [2, 'retry', 'HTTP 503.'],
      [3, 'failed', 'Error: Still down'],
    ]);
    // The first line of an error only: what a driver appends (query parameters) is not kept.
    expect(JSON.stringify(attempts)).not.toContain('secret-looking');
  });

  it('fails at once a job whose handler says trying again cannot help', async () => {
    const { kind, runs } = kindAnswering([
      { ok: false, retry: false, reason: 'The integration was removed.' },
    ]);
    await queue().enqueue(db(), { kind, organisationId: null, payload: { n: 1 } });
    await queue().settled();
    expect(runs).toHaveLength(1);
    expect((await repo.listJobs(db(), kind))[0]).toMatchObject({
      state: 'failed',
      lastError: 'The integration was removed.',
    });
  });

  it('waits for a Retry-After longer than its backoff', async () => {
    const { kind, runs } = kindAnswering([
      { ok: false, retry: true, reason: 'HTTP 429.', retryAfterMs: 300 },
    ]);
    await queue().enqueue(db(), { kind, organisationId: null, payload: { n: 1 } });
    await queue().settled();
    expect(runs).toHaveLength(2);
    expect(runs[1]!.at - runs[0]!.at).toBeGreaterThanOrEqual(290);
  });

  it('runs a job with a due time no earlier than that time', async () => {
    const { kind, runs } = kindAnswering([]);
    const dueAt = new Date(Date.now() + 300);
    await queue().enqueue(db(), { kind, organisationId: null, payload: { n: 1 }, dueAt });
    await queue().settled();
    expect(runs).toHaveLength(1);
    expect(runs[0]!.at).toBeGreaterThanOrEqual(dueAt.getTime() - 5);
  });

  it('makes the next attempt of a pending job at once with runNow, whatever its due time, and leaves its retries to the worker', async () => {
    const { kind, runs } = kindAnswering([{ ok: false, retry: true, reason: 'Mail server away.' }]);
    const dueAt = new Date(Date.now() + 60_000);
    const id = await queue().enqueue(db(), { kind, organisationId: null, payload: { n: 1 }, dueAt });
    expect(await queue().runNow(id!)).toEqual({ ok: false, retry: true, reason: 'Mail server away.' });
    expect(runs.map((run) => run.attempt)).toEqual([1]);
    await queue().settled();
    expect(runs.map((run) => run.attempt)).toEqual([1, 2]);
    expect((await repo.listAttempts(db(), id!)).map((attempt) => attempt.outcome)).toEqual(['retry', 'done']);
    // A job no longer pending is not run again.
    expect(await queue().runNow(id!)).toBeNull();
    expect(runs).toHaveLength(2);
  });

  it('takes back a job whose worker stopped once its lease has run out; the old claim can no longer finish it', async () => {
    const kind = `test.${randomUUID()}`;
    await queue().enqueue(db(), { kind, organisationId: null, payload: { n: 1 } });
    // A worker that took the job and then stopped (no handler is registered here yet).
    const at = new Date();
    const [stale] = await repo.claimDueJobs(db(), [kind], at, new Date(at.getTime() + 200), 10);
    expect(stale).toMatchObject({ attempt: 1 });
    expect(await repo.claimDueJobs(db(), [kind], new Date(), new Date(Date.now() + 200), 10)).toEqual([]);

    const runs: number[] = [];
    queue().handle(kind, {
      retryDelaysMs: [5],
      async run(job) {
        runs.push(job.attempt);
        return { ok: true };
      },
    });
    await expect
      .poll(async () => (await repo.listJobs(db(), kind))[0]?.state, { timeout: 10_000 })
      .toBe('done');
    expect(runs).toEqual([2]);
    expect(await repo.releaseJob(db(), stale!, { state: 'failed', at: new Date(), error: 'late' })).toBe(
      false,
    );
    const [job] = await repo.listJobs(db(), kind);
    expect(job).toMatchObject({ state: 'done', attempts: 2 });
    // The stopped worker's attempt is on record, as lasting a lease.
    expect((await repo.listAttempts(db(), job!.id)).map((a) => [a.attempt, a.outcome, a.error])).toEqual([
      [1, 'retry', repo.INTERRUPTED_ATTEMPT],
      [2, 'done', null],
    ]);
  });

  it('commits a transactional handler’s writes with the job’s completion, and none when it throws', async () => {
    const kind = `test.${randomUUID()}`;
    const follow = `test.${randomUUID()}`;
    let fail = true;
    queue().handle(kind, {
      transactional: true,
      retryDelaysMs: [5],
      async run(tx, job) {
        await queue().enqueue(tx, {
          kind: follow,
          organisationId: null,
          payload: {},
          dedupeKey: `${follow}:${job.id}`,
        });
        if (fail) {
          fail = false;
          throw new Error('The fan-out failed half-way');
        }
      },
    });
    await queue().enqueue(db(), { kind, organisationId: null, payload: {} });
    await queue().settled();
    const [job] = await repo.listJobs(db(), kind);
    expect(job).toMatchObject({ state: 'done', attempts: 2 });
    expect((await repo.listAttempts(db(), job!.id)).map((attempt) => attempt.outcome)).toEqual([
      'retry',
      'done',
    ]);
    // The first attempt's write rolled back with it: one follow-up job.
    expect(await repo.listJobs(db(), follow)).toHaveLength(1);
  });

  describe('with a slow job', () => {
    type Step = { lane: string; n: number };

    /** A kind whose jobs of the `slow` lane wait for `release`; each other lane's job ends at once. */
    function kindWithSlowLane() {
      const kind = `test.${randomUUID()}`;
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      // Let go even when the test fails, so that the next test's wait for the worker ends.
      onTestFinished(() => release());
      const events: string[] = [];
      let active = 0;
      let mostActive = 0;
      queue().handle<Step>(kind, {
        retryDelaysMs: [5],
        lane: (job) => (job.payload as Step).lane,
        async run(job) {
          const { lane, n } = job.payload;
          events.push(`${lane} ${n} begins`);
          if (lane === 'slow') {
            active++;
            mostActive = Math.max(mostActive, active);
            // The first waits for the test; the ones after it take a moment, so overlap would show.
            if (n === 1) await gate;
            else await new Promise((resolve) => setTimeout(resolve, 20));
            active--;
          }
          events.push(`${lane} ${n} ends`);
          return { ok: true };
        },
      });
      const add = (step: Step) => queue().enqueue(db(), { kind, organisationId: null, payload: step });
      const states = async (ids: (string | null)[]) => {
        const jobs = await repo.listJobs(db(), kind);
        return ids.map((id) => jobs.find((job) => job.id === id)?.state);
      };
      return { kind, events, release, add, states, mostActive: () => mostActive };
    }

    it('runs the jobs of other lanes while it is under way', async () => {
      const { events, release, add, states } = kindWithSlowLane();
      const slow = await add({ lane: 'slow', n: 1 });
      await expect.poll(() => events, { timeout: 5_000 }).toEqual(['slow 1 begins']);
      const others: (string | null)[] = [];
      for (const lane of ['a', 'b', 'c']) others.push(await add({ lane, n: 1 }));
      await expect.poll(() => states(others), { timeout: 5_000 }).toEqual(['done', 'done', 'done']);
      expect(await states([slow])).toEqual(['running']);
      expect(events.filter((event) => event.startsWith('slow'))).toEqual(['slow 1 begins']);
      release();
      await queue().settled();
      expect(await states([slow])).toEqual(['done']);
    });

    it('runs the later jobs of its lane after it, one at a time and in order, each attempted once', async () => {
      const { events, release, add, states, mostActive } = kindWithSlowLane();
      const ids = [await add({ lane: 'slow', n: 1 })];
      await expect.poll(() => events, { timeout: 5_000 }).toEqual(['slow 1 begins']);
      for (const n of [2, 3, 4]) ids.push(await add({ lane: 'slow', n }));
      // Taken by the worker, they wait behind the first.
      await expect.poll(() => states(ids), { timeout: 5_000 }).toEqual(ids.map(() => 'running'));
      expect(events).toEqual(['slow 1 begins']);
      release();
      await queue().settled();
      expect(events).toEqual([1, 2, 3, 4].flatMap((n) => [`slow ${n} begins`, `slow ${n} ends`]));
      expect(mostActive()).toBe(1);
      for (const id of ids)
        expect((await repo.listAttempts(db(), id!)).map((a) => [a.attempt, a.outcome])).toEqual([
          [1, 'done'],
        ]);
    });

    it('takes no more jobs than it has slots for, counting those waiting behind a busy lane', async () => {
      const { events, release, add, states } = kindWithSlowLane();
      const ids = [await add({ lane: 'slow', n: 1 })];
      await expect.poll(() => events, { timeout: 5_000 }).toEqual(['slow 1 begins']);
      for (let n = 2; n <= QUEUE_CONCURRENCY + 2; n++) ids.push(await add({ lane: 'slow', n }));
      const held = ids.slice(0, QUEUE_CONCURRENCY);
      await expect.poll(() => states(held), { timeout: 5_000 }).toEqual(held.map(() => 'running'));
      // Every slot is taken: the last two stay pending, their leases not begun.
      expect(await states(ids.slice(QUEUE_CONCURRENCY))).toEqual(['pending', 'pending']);
      release();
      await queue().settled();
      expect(await states(ids)).toEqual(ids.map(() => 'done'));
      expect(events.filter((event) => event.endsWith('begins'))).toEqual(
        ids.map((_, i) => `slow ${i + 1} begins`),
      );
    });
  });

  it('stops once the attempt under way has ended, its wait cut short, and gives back the jobs waiting behind it untried', async () => {
    // A worker of its own, which the test stops (the app's goes on for the other tests).
    const worker = createQueue({ db: db(), logger: { warn() {} }, pollMs: 0 });
    const kind = `test.${randomUUID()}`;
    const runs: number[] = [];
    worker.handle<{ n: number }>(kind, {
      retryDelaysMs: [60_000],
      lane: () => 'one',
      async run(job, signal) {
        runs.push(job.payload.n);
        await new Promise((resolve) => signal.addEventListener('abort', resolve));
        return { ok: false, retry: true, reason: 'Cut short.' };
      },
    });
    worker.start();
    onTestFinished(() => worker.stop());
    const first = await worker.enqueue(db(), { kind, organisationId: null, payload: { n: 1 } });
    await expect.poll(() => runs, { timeout: 5_000 }).toEqual([1]);
    const second = await worker.enqueue(db(), { kind, organisationId: null, payload: { n: 2 } });
    const state = async (id: string | null) =>
      (await repo.listJobs(db(), kind)).find((job) => job.id === id)?.state;
    await expect.poll(() => state(second), { timeout: 5_000 }).toBe('running');
    await worker.stop();
    expect(runs).toEqual([1]);
    const jobs = await repo.listJobs(db(), kind);
    expect(jobs.find((job) => job.id === first)).toMatchObject({
      state: 'pending',
      attempts: 1,
      lastError: 'Cut short.',
    });
    expect(jobs.find((job) => job.id === second)).toMatchObject({
      state: 'pending',
      attempts: 0,
      lockedUntil: null,
    });
    expect(await repo.listAttempts(db(), second!)).toEqual([]);
    expect(worker.busy()).toBe(false);
  });
});
