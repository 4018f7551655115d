import { inArray, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import {
  environments,
  experimentExposures,
  experiments,
  featureControls,
  goals,
  impressionCounters,
  projects,
  targetUsers,
  targetValues,
} from '../db/schema/index';
import type {
  ControlRow,
  ConversionRow,
  ExposureRow,
  GoalRow,
  ImpressionRow,
  Live,
  UserRow,
  ValueRow,
} from './ingestion-rows';

const CHUNK = 500;

async function chunked<T>(rows: T[], write: (chunk: T[]) => Promise<unknown>) {
  for (let start = 0; start < rows.length; start += CHUNK) await write(rows.slice(start, start + CHUNK));
}

/*
 * Every write takes its rows in key order: two server instances upserting the same counters then
 * lock them in the same order and cannot deadlock each other.
 */
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export async function addImpressions(db: Executor, rows: ImpressionRow[]) {
  rows.sort(
    (a, b) =>
      byText(a.featureControlId, b.featureControlId) ||
      byText(a.day, b.day) ||
      byText(a.variantKey, b.variantKey),
  );
  await chunked(rows, (chunk) =>
    db
      .insert(impressionCounters)
      .values(chunk)
      .onConflictDoUpdate({
        target: [impressionCounters.featureControlId, impressionCounters.day, impressionCounters.variantKey],
        set: { count: sql`${impressionCounters.count} + excluded.count` },
      }),
  );
}

/**
 * Marks controls available and moves their last impression forward (never back), in one statement.
 * Answers the ids of the controls that became available now: evaluated by an SDK for the first time.
 */
export async function touchControls(db: Executor, rows: ControlRow[]): Promise<string[]> {
  rows.sort((a, b) => byText(a.controlId, b.controlId));
  const firstSeen: string[] = [];
  await chunked(rows, async (chunk) => {
    const values = sql.join(
      chunk.map(
        (row) =>
          sql`(${row.controlId}::uuid, ${row.seenAt.toISOString()}::timestamptz, ${row.lastImpressionAt?.toISOString() ?? null}::timestamptz)`,
      ),
      sql`, `,
    );
    // Rows already available with a later impression are left alone: no new row version, no lock.
    // `available_at` is set only when it was empty, so it equals this request's time exactly when
    // the control became available now.
    const result = (await db.execute(sql`
      update ${featureControls} as fc
      set available = true,
          available_at = coalesce(fc.available_at, v.seen_at),
          last_impression_at = greatest(fc.last_impression_at, v.last_impression_at)
      from (values ${values}) as v(id, seen_at, last_impression_at)
      where fc.id = v.id
        and (not fc.available or fc.available_at is null
             or v.last_impression_at > coalesce(fc.last_impression_at, '-infinity'::timestamptz))
      returning fc.id, (fc.available_at = v.seen_at) as first`)) as unknown as {
      // Both drivers (node-postgres and PGlite) answer their rows in `rows`.
      rows: { id: string; first: boolean }[];
    };
    for (const row of result.rows) if (row.first) firstSeen.push(row.id);
  });
  return firstSeen;
}

export async function upsertUsers(db: Executor, rows: UserRow[]) {
  rows.sort((a, b) => byText(a.environmentId, b.environmentId) || byText(a.userKey, b.userKey));
  await chunked(rows, (chunk) =>
    db
      .insert(targetUsers)
      .values(chunk)
      .onConflictDoUpdate({
        target: [targetUsers.environmentId, targetUsers.userKey],
        set: { attributes: sql`excluded.attributes`, lastSeenAt: sql`excluded.last_seen_at` },
      }),
  );
}

export async function upsertValues(db: Executor, rows: ValueRow[]) {
  rows.sort(
    (a, b) =>
      byText(a.projectId, b.projectId) || byText(a.targetKey, b.targetKey) || byText(a.value, b.value),
  );
  await chunked(rows, (chunk) =>
    db
      .insert(targetValues)
      .values(chunk)
      .onConflictDoUpdate({
        target: [targetValues.projectId, targetValues.targetKey, targetValues.value],
        set: { lastSeenAt: sql`greatest(${targetValues.lastSeenAt}, excluded.last_seen_at)` },
      }),
  );
}

export async function upsertGoals(db: Executor, rows: GoalRow[]) {
  rows.sort((a, b) => byText(a.projectId, b.projectId) || byText(a.key, b.key));
  await chunked(rows, (chunk) =>
    db
      .insert(goals)
      .values(chunk)
      .onConflictDoUpdate({
        target: [goals.projectId, goals.key],
        set: { lastSeenAt: sql`greatest(${goals.lastSeenAt}, excluded.last_seen_at)` },
      }),
  );
}

/**
 * First exposures: a user already counted keeps their variant, and is marked as crossed when seen
 * now with another one (only then is the row written again).
 */
export async function addExposures(db: Executor, rows: ExposureRow[]) {
  rows.sort((a, b) => byText(a.experimentId, b.experimentId) || byText(a.userKey, b.userKey));
  await chunked(rows, (chunk) =>
    db
      .insert(experimentExposures)
      .values(chunk)
      .onConflictDoUpdate({
        target: [experimentExposures.experimentId, experimentExposures.userKey],
        set: { crossed: sql`true` },
        setWhere: sql`not ${experimentExposures.crossed} and (excluded.crossed or ${experimentExposures.variantKey} <> excluded.variant_key)`,
      }),
  );
}

/**
 * Conversions of exposed users: a goal event at or after the user's exposure converts them once (the
 * first such time is kept); every such event adds to their count and value sum. Goal events of users
 * never exposed, or only before their exposure, count nothing.
 */
export async function addConversions(db: Executor, rows: ConversionRow[]) {
  rows.sort((a, b) => byText(a.experimentId, b.experimentId) || byText(a.userKey, b.userKey));
  await chunked(rows, async (chunk) => {
    const values = sql.join(
      chunk.map(
        (row) =>
          sql`(${row.experimentId}::uuid, ${row.userKey}, ${row.firstAt.toISOString()}::timestamptz, ${row.lastAt.toISOString()}::timestamptz, ${row.count}::int, ${row.valueSum}::float8)`,
      ),
      sql`, `,
    );
    await db.execute(sql`
      update ${experimentExposures} as e
      set converted_at = coalesce(e.converted_at, greatest(v.first_at, e.exposed_at)),
          conversions = e.conversions + v.n,
          value_sum = e.value_sum + v.value_sum
      from (values ${values}) as v(experiment_id, user_key, first_at, last_at, n, value_sum)
      where e.experiment_id = v.experiment_id and e.user_key = v.user_key and e.exposed_at <= v.last_at`);
  });
}

/** Which of these controls, environments, projects and experiments still exist. */
export async function existing(
  db: Executor,
  ids: { controls: string[]; environments: string[]; projects: string[]; experiments: string[] },
): Promise<Live> {
  const controls = ids.controls.length
    ? await db
        .select({ id: featureControls.id })
        .from(featureControls)
        .where(inArray(featureControls.id, ids.controls))
    : [];
  const envs = ids.environments.length
    ? await db
        .select({ id: environments.id })
        .from(environments)
        .where(inArray(environments.id, ids.environments))
    : [];
  const live = ids.projects.length
    ? await db.select({ id: projects.id }).from(projects).where(inArray(projects.id, ids.projects))
    : [];
  const running = ids.experiments.length
    ? await db
        .select({ id: experiments.id })
        .from(experiments)
        .where(inArray(experiments.id, ids.experiments))
    : [];
  return {
    controls: new Set(controls.map((row) => row.id)),
    environments: new Set(envs.map((row) => row.id)),
    projects: new Set(live.map((row) => row.id)),
    experiments: new Set(running.map((row) => row.id)),
  };
}
