import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, timestamptz } from './columns.ts';
import { organisations } from './identity.ts';

/** Where a job is: waiting for its due time, taken by a worker under a lease, or finished. */
export type JobState = 'pending' | 'running' | 'done' | 'failed';

/** How one attempt of a job ended. */
export type JobAttemptOutcome = 'done' | 'retry' | 'failed';

/**
 * The durable queue (docs/adr/0023-durable-queue.md): work a change triggers, written in the change's
 * transaction, and later work with a due time. A worker takes due rows with `FOR UPDATE SKIP LOCKED`
 * under a lease (`locked_until`, `lock_token`), so that instances on one database never run a job
 * twice at once and a crashed instance's job comes back when its lease ends.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: id(),
    /** The organisation the job works for; null for work of the whole installation. */
    organisationId: uuid('organisation_id').references(() => organisations.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    payload: jsonb('payload').$type<unknown>().notNull(),
    /** A second job with the same key is not added (idempotent enqueueing). */
    dedupeKey: text('dedupe_key'),
    state: text('state').$type<JobState>().notNull().default('pending'),
    /** Attempts begun, counted when a worker takes the job. */
    attempts: integer('attempts').notNull().default(0),
    dueAt: timestamptz('due_at').notNull().defaultNow(),
    /** While `running`: when another worker may take the job again. */
    lockedUntil: timestamptz('locked_until'),
    /** The claim that holds the lease; only its holder may finish the job. */
    lockToken: uuid('lock_token'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    finishedAt: timestamptz('finished_at'),
  },
  (t) => [
    uniqueIndex('jobs_dedupe_key_unique').on(t.dedupeKey),
    index('jobs_pending_due_idx')
      .on(t.dueAt)
      .where(sql`state = 'pending'`),
    index('jobs_running_lease_idx')
      .on(t.lockedUntil)
      .where(sql`state = 'running'`),
    index('jobs_finished_idx').on(t.finishedAt),
  ],
);

/** Every attempt of a job: when, how long, how it ended and why (never a secret). */
export const jobAttempts = pgTable(
  'job_attempts',
  {
    id: id(),
    jobId: uuid('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    startedAt: timestamptz('started_at').notNull(),
    durationMs: integer('duration_ms').notNull(),
    outcome: text('outcome').$type<JobAttemptOutcome>().notNull(),
    error: text('error'),
  },
  (t) => [index('job_attempts_job_idx').on(t.jobId, t.attempt)],
);
