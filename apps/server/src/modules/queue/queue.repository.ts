import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, lt, lte, min, or, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client';
import { jobAttempts, jobs } from '../../db/schema/index';
import type { ClaimedJob, JobAttemptRecord, JobInput, JobRecord } from './queue.types';

const claimedColumns = {
  id: jobs.id,
  kind: jobs.kind,
  organisationId: jobs.organisationId,
  payload: jobs.payload,
  attempt: jobs.attempts,
  dueAt: jobs.dueAt,
  createdAt: jobs.createdAt,
};

/** Adds a job; its id, or null when a job with the same dedupe key exists. */
export async function insertJob(db: Executor, job: JobInput, at: Date): Promise<string | null> {
  const [row] = await db
    .insert(jobs)
    .values({
      kind: job.kind,
      organisationId: job.organisationId,
      payload: job.payload,
      dedupeKey: job.dedupeKey ?? null,
      dueAt: job.dueAt ?? at,
      createdAt: at,
    })
    .onConflictDoNothing()
    .returning({ id: jobs.id });
  return row?.id ?? null;
}

/** Why an attempt whose worker stopped during it is recorded as it is. */
export const INTERRUPTED_ATTEMPT = 'The worker stopped during this attempt; its lease ran out.';

/** What a worker may take: due and waiting, or taken by a worker whose lease has run out. */
function claimable(kinds: string[], at: Date) {
  return and(
    inArray(jobs.kind, kinds),
    or(
      and(eq(jobs.state, 'pending'), lte(jobs.dueAt, at)),
      and(eq(jobs.state, 'running'), lte(jobs.lockedUntil, at)),
    ),
  );
}

/**
 * Takes up to `limit` due jobs of these kinds, oldest due first, skipping rows another worker is
 * taking, and leases them until `leaseUntil` under one new claim token; each attempt is counted.
 */
export async function claimDueJobs(
  db: Database,
  kinds: string[],
  at: Date,
  leaseUntil: Date,
  limit: number,
): Promise<ClaimedJob[]> {
  if (kinds.length === 0) return [];
  const claimed = await db.transaction(async (tx) => {
    const due = await tx
      .select({ id: jobs.id, state: jobs.state, attempts: jobs.attempts, lockedUntil: jobs.lockedUntil })
      .from(jobs)
      .where(claimable(kinds, at))
      .orderBy(asc(jobs.dueAt), asc(jobs.createdAt))
      .limit(limit)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    // A job still running whose lease ran out: the worker that had it stopped during its attempt,
    // which is recorded now (it had no chance to say so) as having lasted a lease, the same length on
    // every instance of one version.
    const leaseMs = leaseUntil.getTime() - at.getTime();
    const interrupted = due.filter((row) => row.state === 'running' && row.lockedUntil);
    if (interrupted.length > 0)
      await tx.insert(jobAttempts).values(
        interrupted.map((row) => ({
          jobId: row.id,
          attempt: row.attempts,
          startedAt: new Date(row.lockedUntil!.getTime() - leaseMs),
          durationMs: leaseMs,
          outcome: 'retry' as const,
          error: INTERRUPTED_ATTEMPT,
        })),
      );
    const lockToken = randomUUID();
    const rows = await tx
      .update(jobs)
      .set({ state: 'running', lockedUntil: leaseUntil, lockToken, attempts: sql`${jobs.attempts} + 1` })
      .where(
        inArray(
          jobs.id,
          due.map((row) => row.id),
        ),
      )
      .returning(claimedColumns);
    return rows.map((row) => ({ ...row, lockToken }));
  });
  return claimed.sort(
    (a, b) => a.dueAt.getTime() - b.dueAt.getTime() || a.createdAt.getTime() - b.createdAt.getTime(),
  );
}

/**
 * Takes one pending job of these kinds now, whatever its due time, under a new claim (an attempt the
 * caller makes at once); null when it is not pending (another worker has it, or it is finished).
 */
export async function claimJob(
  db: Executor,
  id: string,
  kinds: string[],
  leaseUntil: Date,
): Promise<ClaimedJob | null> {
  if (kinds.length === 0) return null;
  const lockToken = randomUUID();
  // A worker taking the row meanwhile holds its lock: this update waits, then finds it running.
  const [row] = await db
    .update(jobs)
    .set({ state: 'running', lockedUntil: leaseUntil, lockToken, attempts: sql`${jobs.attempts} + 1` })
    .where(and(eq(jobs.id, id), inArray(jobs.kind, kinds), eq(jobs.state, 'pending')))
    .returning(claimedColumns);
  return row ? { ...row, lockToken } : null;
}

/** Locks the job's row for the transaction, if this claim still holds it. */
export async function holdJob(tx: Executor, job: ClaimedJob): Promise<boolean> {
  const rows = await tx
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.id, job.id), eq(jobs.lockToken, job.lockToken), eq(jobs.state, 'running')))
    .for('update');
  return rows.length > 0;
}

/**
 * Moves the end of this claim's lease to `leaseUntil`, as an attempt that waited behind its lane
 * begins; false when the claim no longer holds the job (the wait outlasted the lease and another
 * worker took it).
 */
export async function renewJob(db: Executor, job: ClaimedJob, leaseUntil: Date): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({ lockedUntil: leaseUntil })
    .where(and(eq(jobs.id, job.id), eq(jobs.lockToken, job.lockToken), eq(jobs.state, 'running')))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

/**
 * Gives back a job this claim took and never began (its worker stopped while it waited behind its
 * lane): pending again, due as it was, and its attempt, never made, no longer counted.
 */
export async function unclaimJob(db: Executor, job: ClaimedJob): Promise<void> {
  await db
    .update(jobs)
    .set({ state: 'pending', lockedUntil: null, lockToken: null, attempts: sql`${jobs.attempts} - 1` })
    .where(and(eq(jobs.id, job.id), eq(jobs.lockToken, job.lockToken), eq(jobs.state, 'running')));
}

/**
 * Ends this claim of the job: `done` or `failed` for good, or `pending` again at `dueAt`. False when
 * the claim no longer holds the job (its lease ran out and another worker took it).
 */
export async function releaseJob(
  db: Executor,
  job: ClaimedJob,
  next:
    | { state: 'done' | 'failed'; at: Date; error: string | null }
    | { state: 'pending'; dueAt: Date; error: string },
): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set(
      next.state === 'pending'
        ? { state: 'pending', dueAt: next.dueAt, lockedUntil: null, lockToken: null, lastError: next.error }
        : {
            state: next.state,
            finishedAt: next.at,
            lockedUntil: null,
            lockToken: null,
            lastError: next.error,
          },
    )
    .where(and(eq(jobs.id, job.id), eq(jobs.lockToken, job.lockToken)))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

/** Records one attempt of a job. */
export async function insertAttempt(db: Executor, jobId: string, attempt: JobAttemptRecord): Promise<void> {
  await db.insert(jobAttempts).values({ jobId, ...attempt });
}

/** When the next job of these kinds comes due (or a lease runs out), if any does. */
export async function nextDue(db: Executor, kinds: string[]): Promise<Date | null> {
  if (kinds.length === 0) return null;
  const [pending] = await db
    .select({ at: min(jobs.dueAt) })
    .from(jobs)
    .where(and(inArray(jobs.kind, kinds), eq(jobs.state, 'pending')));
  const [running] = await db
    .select({ at: min(jobs.lockedUntil) })
    .from(jobs)
    .where(and(inArray(jobs.kind, kinds), eq(jobs.state, 'running')));
  const times = [pending?.at, running?.at].filter((at): at is Date => at instanceof Date);
  return times.length === 0 ? null : new Date(Math.min(...times.map((at) => at.getTime())));
}

/** Deletes finished jobs (and their attempts) that finished before `before`. */
export async function pruneJobs(db: Executor, before: Date): Promise<void> {
  await db.delete(jobs).where(and(inArray(jobs.state, ['done', 'failed']), lt(jobs.finishedAt, before)));
}

/** The jobs of one kind, oldest first (tests and operators). */
export async function listJobs(db: Executor, kind: string): Promise<JobRecord[]> {
  return db
    .select({
      id: jobs.id,
      kind: jobs.kind,
      organisationId: jobs.organisationId,
      payload: jobs.payload,
      dedupeKey: jobs.dedupeKey,
      state: jobs.state,
      attempts: jobs.attempts,
      dueAt: jobs.dueAt,
      lockedUntil: jobs.lockedUntil,
      lastError: jobs.lastError,
      createdAt: jobs.createdAt,
      finishedAt: jobs.finishedAt,
    })
    .from(jobs)
    .where(eq(jobs.kind, kind))
    .orderBy(asc(jobs.createdAt), asc(jobs.id));
}

/** A job's attempts, in order. */
export async function listAttempts(db: Executor, jobId: string): Promise<JobAttemptRecord[]> {
  return db
    .select({
      attempt: jobAttempts.attempt,
      startedAt: jobAttempts.startedAt,
      durationMs: jobAttempts.durationMs,
      outcome: jobAttempts.outcome,
      error: jobAttempts.error,
    })
    .from(jobAttempts)
    .where(eq(jobAttempts.jobId, jobId))
    .orderBy(asc(jobAttempts.attempt));
}
