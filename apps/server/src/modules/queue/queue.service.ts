import type { Database, Executor } from '../../db/client';
import { createLanes } from './queue.lanes';
import * as repo from './queue.repository';
import type { ClaimedJob, Job, JobHandler, JobInput, JobOutcome } from './queue.types';

/** How long a taken job is left to its worker before another may take it again. */
export const JOB_LEASE_MS = 2 * 60 * 1000;
/** How often the worker looks for jobs that came due elsewhere (another instance's, a lease run out). */
export const DEFAULT_QUEUE_POLL_MS = 5_000;
/** The longest Retry-After honoured, unless a kind says otherwise. */
const MAX_RETRY_AFTER_MS = 10 * 60 * 1000;
/**
 * How many jobs one worker holds at once: attempts under way, and jobs waiting behind their lane.
 * A slot is filled again as soon as it frees, so one slow attempt holds back no more than itself.
 */
export const QUEUE_CONCURRENCY = 10;
/** How long the worker watches for a job enqueued here whose transaction has not committed yet. */
const WATCH_MS = 2_000;
/** Finished jobs and their attempts are kept this long. */
const KEEP_FINISHED_MS = 7 * 24 * 60 * 60 * 1000;
/** Errors are stored this long at most. */
const ERROR_LENGTH = 300;
/** `settled()` waits for retries due within this time. */
const SETTLE_HORIZON_MS = 15_000;

/** Where the worker reports failures: ids, kinds and reasons, never a payload or secret. */
export type QueueLogger = { warn: (details: Record<string, unknown>, message: string) => void };

/** Adds a job in the caller's transaction (or on its own with the db); its id, null for a repeated dedupe key. */
export type Enqueue = (executor: Executor, job: JobInput) => Promise<string | null>;

export type Queue = ReturnType<typeof createQueue>;

/** What a module that adds jobs and runs some kinds of them needs of the queue. */
export type JobQueue = Pick<Queue, 'enqueue' | 'handle'>;

/** A failure's text for the attempts' record: its first line, short, without the query parameters a driver adds. */
function errorText(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : 'The job failed.';
  return text.split('\n')[0]!.slice(0, ERROR_LENGTH);
}

/**
 * The durable queue (docs/adr/0023-durable-queue.md): `enqueue` writes a job in the caller's
 * transaction, so it commits with the change or not at all; handlers are registered per kind; a
 * worker takes due jobs with `FOR UPDATE SKIP LOCKED` under a lease, as many as it has free slots
 * for (`QUEUE_CONCURRENCY`), runs them by lane (queue.lanes.ts), records each attempt and retries with
 * the kind's backoff until it fails for good. It looks at once after an enqueue on this instance, when
 * a slot frees while due jobs were left, and every `pollMs` otherwise.
 */
export function createQueue(deps: {
  db: Database;
  logger: QueueLogger;
  /** How often to look for due jobs (default 5 s; 0: only when woken or a retry comes due). */
  pollMs?: number;
  leaseMs?: number;
  now?: () => Date;
}) {
  const { db, logger } = deps;
  const now = deps.now ?? (() => new Date());
  const pollMs = deps.pollMs ?? DEFAULT_QUEUE_POLL_MS;
  const leaseMs = deps.leaseMs ?? JOB_LEASE_MS;
  const handlers = new Map<string, JobHandler>();
  /** Jobs enqueued here and not seen yet: their transaction may still be open. By id, when (ms). */
  const awaited = new Map<string, number>();
  let pass: Promise<void> | null = null;
  let again = false;
  /** The last look left due jobs for want of a free slot: a slot freeing looks again. */
  let backlog = false;
  let stopped = true;
  let stopping = new AbortController();
  let poll: NodeJS.Timeout | null = null;
  let soon: { timer: NodeJS.Timeout; at: number } | null = null;
  let lastPrune = 0;

  /** Wakes the worker in `delayMs`, unless it is already to wake sooner. */
  function schedule(delayMs: number): void {
    if (stopped) return;
    const at = Date.now() + Math.max(0, delayMs);
    if (soon && soon.at <= at) return;
    if (soon) clearTimeout(soon.timer);
    const timer = setTimeout(
      () => {
        soon = null;
        wake();
      },
      Math.max(0, delayMs),
    );
    timer.unref();
    soon = { timer, at };
  }

  /** Wakes the worker when a job comes due at `at`, unless its regular look comes first. */
  function wakeAt(at: Date): void {
    const wait = at.getTime() - now().getTime();
    if (pollMs === 0 || wait < pollMs) schedule(wait);
  }

  /**
   * Ends this claim of the job with its outcome, and records the attempt; neither when the claim no
   * longer holds the job (the attempt outlasted its lease and another worker took it, recording it).
   */
  async function settle(job: ClaimedJob, handler: JobHandler, outcome: JobOutcome, startedAt: Date) {
    const at = now();
    const durationMs = Math.max(0, at.getTime() - startedAt.getTime());
    const delay = handler.retryDelaysMs[job.attempt - 1];
    const retry = !outcome.ok && outcome.retry && delay !== undefined;
    const error = outcome.ok ? null : outcome.reason.slice(0, ERROR_LENGTH);
    let dueAt: Date | null = null;
    const held = await db.transaction(async (tx) => {
      let released: boolean;
      if (outcome.ok) released = await repo.releaseJob(tx, job, { state: 'done', at, error: null });
      else if (retry) {
        const wanted = Math.min(outcome.retryAfterMs ?? 0, handler.maxRetryAfterMs ?? MAX_RETRY_AFTER_MS);
        dueAt = new Date(at.getTime() + Math.max(delay, wanted));
        released = await repo.releaseJob(tx, job, { state: 'pending', dueAt, error: error! });
      } else released = await repo.releaseJob(tx, job, { state: 'failed', at, error });
      if (!released) return false;
      await repo.insertAttempt(tx, job.id, {
        attempt: job.attempt,
        startedAt,
        durationMs,
        outcome: outcome.ok ? 'done' : retry ? 'retry' : 'failed',
        error,
      });
      return true;
    });
    if (!held) {
      logger.warn({ jobId: job.id, kind: job.kind }, 'A job was taken again after its lease ran out');
      return;
    }
    // The retry is looked for when it comes due, whether or not a pass is under way then.
    if (dueAt) wakeAt(dueAt);
    if (!outcome.ok && !retry)
      logger.warn(
        { jobId: job.id, kind: job.kind, attempts: job.attempt, reason: error },
        'A job failed for good',
      );
  }

  /**
   * One attempt of a job: a transactional handler with the job's completion, any other under its
   * lease. Its outcome; null when a transactional job's claim was lost.
   */
  async function runJob(job: ClaimedJob): Promise<JobOutcome | null> {
    const handler = handlers.get(job.kind)!;
    const startedAt = now();
    const { lockToken: _, attempt, ...rest } = job;
    const view: Job = { ...rest, attempt };
    if (attempt > handler.retryDelaysMs.length + 1) {
      // The attempts it was allowed were begun, the last by a worker that stopped during it.
      const stopped: JobOutcome = {
        ok: false,
        retry: false,
        reason: 'The worker stopped during the last attempt.',
      };
      await settle(job, handler, stopped, startedAt);
      return stopped;
    }
    let outcome: JobOutcome;
    try {
      if (handler.transactional) {
        const after: (() => void)[] = [];
        const held = await db.transaction(async (tx) => {
          // The row stays locked until the commit: no other worker can take the job meanwhile.
          if (!(await repo.holdJob(tx, job))) return false;
          await handler.run(tx, view, { afterCommit: (task) => after.push(task) });
          const at = now();
          await repo.releaseJob(tx, job, { state: 'done', at, error: null });
          await repo.insertAttempt(tx, job.id, {
            attempt,
            startedAt,
            durationMs: Math.max(0, at.getTime() - startedAt.getTime()),
            outcome: 'done',
            error: null,
          });
          return true;
        });
        if (!held)
          logger.warn({ jobId: job.id, kind: job.kind }, 'A job was taken again after its lease ran out');
        for (const task of after) task();
        return held ? { ok: true } : null;
      }
      outcome = await handler.run(view, stopping.signal);
    } catch (error) {
      outcome = { ok: false, retry: true, reason: errorText(error) };
    }
    await settle(job, handler, outcome, startedAt);
    return outcome;
  }

  /** One attempt of a job the worker holds, made when its lane reaches it (queue.lanes.ts). */
  async function runHeld(job: ClaimedJob, waited: boolean): Promise<void> {
    try {
      // The lease was taken at the claim: a job that waited behind its lane has it renewed as its
      // attempt begins, so that it covers the attempt. Should the wait have outlasted the lease and
      // another worker taken the job meanwhile, the claim no longer holds it and it is left alone.
      if (waited && !(await repo.renewJob(db, job, new Date(now().getTime() + leaseMs)))) {
        logger.warn({ jobId: job.id, kind: job.kind }, 'A job was taken again after its lease ran out');
        return;
      }
      await runJob(job);
    } catch (error) {
      // Recording failed (the database is away): the lease brings the job back.
      logger.warn({ err: error, jobId: job.id, kind: job.kind }, 'A job could not be recorded');
    }
  }

  const lanes = createLanes<ClaimedJob>({
    limit: QUEUE_CONCURRENCY,
    run: runHeld,
    freed: () => {
      if (backlog) wake();
    },
  });

  /** Gives back jobs taken and not begun, for any worker to take at once rather than after their lease. */
  async function giveBack(claimed: ClaimedJob[]): Promise<void> {
    for (const job of claimed) {
      try {
        await repo.unclaimJob(db, job);
      } catch (error) {
        logger.warn({ err: error, jobId: job.id, kind: job.kind }, 'A job could not be given back');
      }
    }
  }

  async function runPass(): Promise<void> {
    const kinds = [...handlers.keys()];
    backlog = false;
    // Take due jobs while there are free slots; each begins at once unless its lane is busy.
    while (!stopped) {
      const free = lanes.free();
      if (free === 0) {
        backlog = true;
        break;
      }
      const at = now();
      const claimed = await repo.claimDueJobs(db, kinds, at, new Date(at.getTime() + leaseMs), free);
      for (const job of claimed) awaited.delete(job.id);
      if (stopped) return giveBack(claimed);
      for (const job of claimed) lanes.add(handlers.get(job.kind)!.lane?.(job) ?? job.id, job);
      if (claimed.length < free) break;
    }
    const at = now().getTime();
    if (at - lastPrune > 60 * 60 * 1000) {
      lastPrune = at;
      await repo.pruneJobs(db, new Date(at - KEEP_FINISHED_MS));
    }
    // Jobs enqueued here whose transactions are still open: look again shortly, for a while.
    const watching = Date.now();
    for (const [id, since] of awaited) if (watching - since > WATCH_MS) awaited.delete(id);
    if (awaited.size > 0) {
      const oldest = Math.min(...awaited.values());
      schedule(Math.min(Math.max(10, watching - oldest), 400));
    }
    // With every slot taken, the next slot to free looks again: what is due already would only wake
    // this worker to find no room.
    if (backlog) return;
    const next = await repo.nextDue(db, kinds);
    if (next) wakeAt(next);
  }

  /** Runs what is due now; a pass under way runs once more. */
  function wake(): void {
    if (stopped) return;
    if (pass) {
      again = true;
      return;
    }
    pass = (async () => {
      do {
        again = false;
        try {
          await runPass();
        } catch (error) {
          logger.warn({ err: error }, 'The job worker failed; it tries again at its next pass');
        }
      } while (again && !stopped);
    })().finally(() => {
      pass = null;
    });
  }

  /**
   * Whether work is under way or about to be: a pass, a job held, a job enqueued here not yet taken,
   * a retry due soon.
   */
  function busy(): boolean {
    return (
      pass !== null ||
      lanes.held() > 0 ||
      awaited.size > 0 ||
      (soon !== null && soon.at - Date.now() < SETTLE_HORIZON_MS)
    );
  }

  return {
    /** Adds a job in the caller's transaction (ADR 0023); the worker here looks for it once it commits. */
    async enqueue(executor: Executor, job: JobInput): Promise<string | null> {
      const at = now();
      const id = await repo.insertJob(executor, job, at);
      if (!id || !handlers.has(job.kind)) return id;
      if (!job.dueAt || job.dueAt.getTime() <= at.getTime()) {
        awaited.set(id, Date.now());
        schedule(0);
      } else wakeAt(job.dueAt);
      return id;
    },

    /** Registers the handler of one kind of job; this instance's worker takes only kinds it knows. */
    handle<P>(kind: string, handler: JobHandler<P>): void {
      if (handlers.has(kind)) throw new Error(`A handler for ${kind} jobs is already registered`);
      handlers.set(kind, handler as JobHandler);
    },

    /**
     * Makes the next attempt of a pending job of a kind handled here now, whatever its due time, as
     * the worker would (under a lease, recorded, its retries left to the worker): for a request that
     * reports the first attempt's outcome (an invitation e-mail). Null when the job is not pending.
     */
    async runNow(id: string): Promise<JobOutcome | null> {
      const at = now();
      const job = await repo.claimJob(db, id, [...handlers.keys()], new Date(at.getTime() + leaseMs));
      if (!job) return null;
      awaited.delete(id);
      try {
        return await runJob(job);
      } finally {
        // A retry is due later: the worker looks for it then.
        wake();
      }
    },

    wake,
    busy,

    /** Resolves once the worker is idle: no pass, no job held or enqueued here waiting, no retry due soon. */
    async settled(): Promise<void> {
      while (busy()) {
        if (pass) await pass;
        else if (lanes.held() > 0) await lanes.whenIdle();
        else
          await new Promise((resolve) => setTimeout(resolve, soon ? Math.max(1, soon.at - Date.now()) : 5));
      }
    },

    /** Starts the worker: a pass now, then every `pollMs`. */
    start(): void {
      if (!stopped) return;
      stopped = false;
      stopping = new AbortController();
      if (pollMs > 0) {
        poll = setInterval(wake, pollMs);
        poll.unref();
      }
      wake();
    },

    /**
     * Stops taking jobs; the attempts under way end (their waits cut short) before it resolves, and
     * the jobs waiting behind their lanes are given back untried.
     */
    async stop(): Promise<void> {
      stopped = true;
      stopping.abort();
      if (poll) clearInterval(poll);
      poll = null;
      if (soon) clearTimeout(soon.timer);
      soon = null;
      awaited.clear();
      const waiting = lanes.withdraw();
      while (pass) await pass;
      await giveBack(waiting);
      await lanes.whenIdle();
    },
  };
}
