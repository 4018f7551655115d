import { and, asc, desc, eq, inArray, isNotNull, lte, notInArray, sql, type SQL } from 'drizzle-orm';
import { FINAL_SCHEDULE_STATES, type ScheduleState } from '@vexil/core';
import type { Executor } from '../../db/client';
import {
  environments,
  features,
  projects,
  rampExposures,
  scheduleEvents,
  schedules,
} from '../../db/schema/index';

/* The schedules module's tables (docs/adr/0025-scheduler.md): every query is scoped to the organisation. */

export type ScheduleRecord = typeof schedules.$inferSelect;
export type NewSchedule = Omit<typeof schedules.$inferInsert, 'createdAt' | 'updatedAt'>;
export type ScheduleChanges = Partial<Omit<NewSchedule, 'organisationId' | 'projectId'>>;
export type ScheduleEventRecord = typeof scheduleEvents.$inferSelect;
export type NewScheduleEvent = Omit<typeof scheduleEvents.$inferInsert, 'id' | 'createdAt'>;

/** A schedule with the names of what it changes. */
export type ScheduleInScope = {
  schedule: ScheduleRecord;
  project: { id: string; key: string };
  feature: { id: string; key: string; name: string };
  environment: { id: string; key: string; name: string; production: boolean; tags: string[] };
};

function inScope(db: Executor, condition: SQL | undefined) {
  return db
    .select({
      schedule: schedules,
      project: { id: projects.id, key: projects.key },
      feature: { id: features.id, key: features.key, name: features.name },
      environment: {
        id: environments.id,
        key: environments.key,
        name: environments.name,
        production: environments.production,
        tags: environments.tags,
      },
    })
    .from(schedules)
    .innerJoin(projects, eq(projects.id, schedules.projectId))
    .innerJoin(features, eq(features.id, schedules.featureId))
    .innerJoin(environments, eq(environments.id, schedules.environmentId))
    .where(condition);
}

export async function insertSchedule(db: Executor, row: NewSchedule, at: Date): Promise<ScheduleRecord> {
  const [inserted] = await db
    .insert(schedules)
    .values({ ...row, createdAt: at, updatedAt: at })
    .returning();
  return inserted!;
}

/** One schedule of the organisation with its names; `forUpdate` locks its row. */
export async function findSchedule(
  db: Executor,
  organisationId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<ScheduleInScope | null> {
  const query = inScope(db, and(eq(schedules.organisationId, organisationId), eq(schedules.id, id)));
  const [row] = options.forUpdate ? await query.for('update', { of: schedules }) : await query;
  return row ?? null;
}

/** Locks one schedule's row by id alone (the scheduler's job names it); null when gone. */
export async function lockSchedule(db: Executor, id: string): Promise<ScheduleInScope | null> {
  const [row] = await inScope(db, eq(schedules.id, id)).for('update', { of: schedules });
  return row ?? null;
}

export async function updateSchedule(
  db: Executor,
  id: string,
  changes: ScheduleChanges,
  at: Date,
): Promise<ScheduleRecord> {
  const [row] = await db
    .update(schedules)
    .set({ ...changes, updatedAt: at })
    .where(eq(schedules.id, id))
    .returning();
  return row!;
}

/** A project's schedules matching the filters, unfinished ones (and the latest finished when asked), soonest first. */
export async function listSchedules(
  db: Executor,
  organisationId: string,
  projectId: string,
  filter: { featureKey?: string | undefined; environmentKey?: string | undefined; finished: boolean },
): Promise<ScheduleInScope[]> {
  const where = and(
    eq(schedules.organisationId, organisationId),
    eq(schedules.projectId, projectId),
    filter.featureKey ? eq(features.key, filter.featureKey) : undefined,
    filter.environmentKey ? eq(environments.key, filter.environmentKey) : undefined,
  );
  const open = await inScope(
    db,
    and(where, notInArray(schedules.state, FINAL_SCHEDULE_STATES as ScheduleState[])),
  ).orderBy(asc(sql`coalesce(${schedules.nextDueAt}, ${schedules.createdAt})`), asc(schedules.createdAt));
  if (!filter.finished) return open;
  const finished = await inScope(
    db,
    and(where, inArray(schedules.state, FINAL_SCHEDULE_STATES as ScheduleState[])),
  )
    .orderBy(desc(schedules.updatedAt))
    .limit(50);
  return [...open, ...finished];
}

/** The schedules of a control that are not finished. */
export async function openSchedulesOf(db: Executor, organisationId: string, controlId: string) {
  return db
    .select({ id: schedules.id, kind: schedules.kind, state: schedules.state })
    .from(schedules)
    .where(
      and(
        eq(schedules.organisationId, organisationId),
        eq(schedules.controlId, controlId),
        notInArray(schedules.state, FINAL_SCHEDULE_STATES as ScheduleState[]),
      ),
    );
}

/** Schedules whose timer is due by `at` (tests and the start-up check that every due schedule has its job). */
export async function dueSchedules(db: Executor, at: Date) {
  return db
    .select({
      id: schedules.id,
      organisationId: schedules.organisationId,
      generation: schedules.generation,
      nextDueAt: schedules.nextDueAt,
    })
    .from(schedules)
    .where(
      and(
        inArray(schedules.state, ['ready', 'running']),
        isNotNull(schedules.nextDueAt),
        lte(schedules.nextDueAt, at),
      ),
    );
}

export async function insertEvents(
  db: Executor,
  events: readonly NewScheduleEvent[],
  at: Date,
): Promise<void> {
  if (events.length === 0) return;
  await db
    .insert(scheduleEvents)
    .values(events.map((event, i) => ({ ...event, createdAt: new Date(at.getTime() + i) })));
}

/** A schedule's history, oldest first. */
export async function eventsOf(
  db: Executor,
  organisationId: string,
  scheduleId: string,
): Promise<ScheduleEventRecord[]> {
  return db
    .select()
    .from(scheduleEvents)
    .where(and(eq(scheduleEvents.organisationId, organisationId), eq(scheduleEvents.scheduleId, scheduleId)))
    .orderBy(asc(scheduleEvents.createdAt), asc(scheduleEvents.id));
}

/**
 * A ramp's users by arm, in all and since `step` began (the event ingestion writes them; docs/adr/
 * 0026-guarded-rollouts.md).
 */
export async function armsOf(db: Executor, organisationId: string, scheduleId: string, step: number) {
  const rows = await db
    .select({
      arm: rampExposures.arm,
      users: sql<number>`count(*)::int`,
      stepUsers: sql<number>`count(*) filter (where ${rampExposures.step} = ${step})::int`,
    })
    .from(rampExposures)
    .where(and(eq(rampExposures.organisationId, organisationId), eq(rampExposures.scheduleId, scheduleId)))
    .groupBy(rampExposures.arm);
  const of = (arm: 'treatment' | 'control') => rows.find((row) => row.arm === arm);
  return {
    treatment: of('treatment')?.users ?? 0,
    control: of('control')?.users ?? 0,
    stepTreatment: of('treatment')?.stepUsers ?? 0,
    stepControl: of('control')?.stepUsers ?? 0,
  };
}
