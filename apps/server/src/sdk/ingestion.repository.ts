import { inArray, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { byText, chunked } from '../db/batches';
import {
  environments,
  experimentExposures,
  experiments,
  featureControls,
  impressionCounters,
  projects,
  targetValues,
} from '../db/schema/index';
import type { ConversionRow, ExposureRow, ImpressionRow, Live, ValueRow } from './ingestion-rows';

/*
 * The tables the dashboard's modules own are written through the writers those modules export for
 * the ingestion's transaction (docs/adr/0019-modules-own-their-tables.md); the ingestion owns the
 * counters, exposures and target values it alone writes. Every batch takes its rows in key order
 * (db/batches.ts).
 */
export { touchControls } from '../modules/controls/control-availability';
export { upsertGoals } from '../modules/experiments/goals';
export { upsertUsers } from '../modules/target-users/seen-users';

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
