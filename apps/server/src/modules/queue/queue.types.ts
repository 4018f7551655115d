import type { Transaction } from '../../db/client';

/** A job to add: what to do (`kind`, `payload`), for whom, and from when. */
export type JobInput = {
  kind: string;
  /** Null for work of the whole installation. */
  organisationId: string | null;
  /** Plain JSON; never a secret (read credentials when the job runs). */
  payload: unknown;
  /** A second job with the same key is not added: enqueueing it again is harmless. */
  dedupeKey?: string | undefined;
  /** Not before this time (default: now). */
  dueAt?: Date | undefined;
};

/** A job as its handler sees it. */
export type Job<P = unknown> = {
  id: string;
  kind: string;
  organisationId: string | null;
  payload: P;
  /** This attempt's number, from 1. */
  attempt: number;
  dueAt: Date;
  createdAt: Date;
};

/** A job a worker has taken: the token of its claim proves it still holds the lease. */
export type ClaimedJob = Job & { lockToken: string };

/**
 * One attempt's outcome: done, or failed and whether to try again (after at least `retryAfterMs`,
 * a receiver's Retry-After). `reason` is stored and logged: it must never hold a secret.
 */
export type JobOutcome =
  { ok: true } | { ok: false; retry: boolean; reason: string; retryAfterMs?: number | undefined };

/** What a transactional handler may ask of the queue besides its transaction. */
export type JobContext = {
  /** Runs `task` once the handler's transaction has committed (to wake another worker, say). */
  afterCommit(task: () => void): void;
};

type HandlerOptions = {
  /** The waits before each retry; the job fails for good after the last. */
  retryDelaysMs: readonly number[];
  /** The longest Retry-After honoured (default 10 minutes). */
  maxRetryAfterMs?: number;
  /**
   * Jobs of one lane that one worker holds run one after another in the order it took them, due order
   * (the posts of one chat channel, say): a job taken while its lane is busy waits behind it, and
   * other lanes run side by side. Without, each job is its own lane.
   */
  lane?: (job: Job) => string;
};

/**
 * How jobs of one kind are run. A `transactional` handler works only on the database: it runs in one
 * transaction with the job's completion, which holds the job's row, so its writes happen exactly once.
 * Any other handler (a request to another service) runs outside, under the lease; a throw is a
 * failure to retry.
 */
export type JobHandler<P = unknown> = HandlerOptions &
  (
    | { transactional: true; run(tx: Transaction, job: Job<P>, context: JobContext): Promise<void> }
    | { transactional?: false; run(job: Job<P>, signal: AbortSignal): Promise<JobOutcome> }
  );

/** A stored job, for tests and operators. */
export type JobRecord = {
  id: string;
  kind: string;
  organisationId: string | null;
  payload: unknown;
  dedupeKey: string | null;
  state: 'pending' | 'running' | 'done' | 'failed';
  attempts: number;
  dueAt: Date;
  lockedUntil: Date | null;
  lastError: string | null;
  createdAt: Date;
  finishedAt: Date | null;
};

/** One recorded attempt of a job. */
export type JobAttemptRecord = {
  attempt: number;
  startedAt: Date;
  durationMs: number;
  outcome: 'done' | 'retry' | 'failed';
  error: string | null;
};
