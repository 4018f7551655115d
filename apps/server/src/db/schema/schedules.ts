import { bigint, boolean, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import {
  SCHEDULE_EVENT_KINDS,
  SCHEDULE_KINDS,
  SCHEDULE_STATES,
  type ControlSnapshot,
  type ScheduleSpec,
} from '@vexil/core';
import { createdAt, id, timestamptz, updatedAt } from './columns.ts';
import { changeRequests } from './change-requests.ts';
import { featureControls, features } from './features.ts';
import { environments, projects } from './projects.ts';
import { organisationId } from './tenant.ts';

/*
 * Release automation (docs/adr/0025-scheduler.md): schedules of one control's changes, and what each
 * did. Both belong to the schedules module; the durable queue's jobs wake them when they fall due.
 */

/**
 * A schedule: what it was asked (`spec`), where it stands, and what it last wrote. Every move of its
 * timer adds one to `generation`: the one job due for it carries the generation it was made for, and
 * a job of an older generation finds nothing to do.
 */
export const schedules = pgTable(
  'schedules',
  {
    id: id(),
    organisationId: organisationId(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    featureId: uuid('feature_id')
      .notNull()
      .references(() => features.id, { onDelete: 'cascade' }),
    environmentId: uuid('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    controlId: uuid('control_id')
      .notNull()
      .references(() => featureControls.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: SCHEDULE_KINDS }).notNull(),
    state: text('state', { enum: SCHEDULE_STATES }).notNull(),
    spec: jsonb('spec').$type<ScheduleSpec>().notNull(),
    /** A ramp's step applied last (from 0), -1 before the first; a recurring schedule's runs. */
    step: integer('step').notNull().default(-1),
    generation: integer('generation').notNull().default(0),
    /** When the scheduler acts next; null while it waits for a person, or once finished. */
    nextDueAt: timestamptz('next_due_at'),
    /** When the ramp's current step was applied (its hold counts from then). */
    stepStartedAt: timestamptz('step_started_at'),
    /** Impressions of the ramped rule's variants when the current step was applied. */
    exposureBaseline: bigint('exposure_baseline', { mode: 'number' }),
    /** The ramp's step whose approval gate was passed. */
    approvedStep: integer('approved_step'),
    /** The control's version the schedule wrote last or started from, and its state then. */
    baseVersion: integer('base_version'),
    baseState: jsonb('base_state').$type<ControlSnapshot>(),
    /** A ramp's control before its first step: what a rollback brings back. */
    priorState: jsonb('prior_state').$type<ControlSnapshot>(),
    /** A recurring schedule's occurrence run (or skipped) last. */
    lastOccurrenceAt: timestamptz('last_occurrence_at'),
    /** Failed attempts of the step due now, and why a schedule is paused or suspended. */
    failures: integer('failures').notNull().default(0),
    reason: text('reason'),
    /** Made by a member allowed to bypass the environment's change requests (audited as such). */
    bypass: boolean('bypass').notNull().default(false),
    /** Made by applying this change request (docs/adr/0024-change-requests.md), which approved it. */
    changeRequestId: uuid('change_request_id').references(() => changeRequests.id, { onDelete: 'set null' }),
    /** The member who made it; kept by name once they leave. */
    authorId: uuid('author_id'),
    authorName: text('author_name').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('schedules_project_state_idx').on(t.organisationId, t.projectId, t.state),
    index('schedules_control_idx').on(t.controlId),
    index('schedules_open_due_idx')
      .on(t.nextDueAt)
      .where(sql`${t.state} in ('ready', 'running')`),
  ],
);

/** One entry of a schedule's history, oldest first. */
export const scheduleEvents = pgTable(
  'schedule_events',
  {
    id: id(),
    organisationId: organisationId(),
    scheduleId: uuid('schedule_id')
      .notNull()
      .references(() => schedules.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: SCHEDULE_EVENT_KINDS }).notNull(),
    step: integer('step'),
    /** The member who acted; null for the scheduler. */
    actorName: text('actor_name'),
    message: text('message').notNull(),
    version: integer('version'),
    createdAt: createdAt(),
  },
  (t) => [index('schedule_events_schedule_idx').on(t.scheduleId, t.createdAt)],
);

export type ScheduleRow = typeof schedules.$inferSelect;
export type NewScheduleRow = typeof schedules.$inferInsert;
