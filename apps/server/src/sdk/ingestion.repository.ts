import { inArray, sql, type SQLWrapper } from 'drizzle-orm';
import type { Database, Executor } from '../db/client';
import { byText, chunkStatements, runEach } from '../db/batches';
import {
  environments,
  experimentExposures,
  rampExposures,
  schedules,
  experiments,
  featureControls,
  impressionCounters,
  projects,
  targetValues,
} from '../db/schema/index';
import {
  firstSeenOf,
  touchControlsStatements,
  type TouchedControl,
} from '../modules/controls/control-availability';
import { upsertGoalsStatements } from '../modules/experiments/goals';
import { upsertUsersStatements } from '../modules/target-users/seen-users';
import type { Live, Rows } from './ingestion-rows';

/*
 * The tables the dashboard's modules own are written through the statements those modules export for
 * the ingestion's write (docs/adr/0019-modules-own-their-tables.md); the ingestion owns the counters,
 * exposures and target values it alone writes. Every batch takes its rows in key order
 * (db/batches.ts).
 */

/**
 * Stores a group's rows atomically and answers the controls evaluated for the first time.
 *
 * When every table's rows fit in one chunk (the usual case, a flood's groups included), the writes
 * are one statement, each table's a data-modifying `with` part, so a group costs one round trip
 * rather than one per table: a quiet tenant's commit then waits for the event loop once, not six
 * times, while another tenant floods (docs/adr/0020-event-groups-in-one-statement.md). Conversions
 * read the exposures written before them, which a part of the same statement cannot see, so a group
 * with conversions runs a second statement in the same transaction; a larger group runs its chunks
 * in turn.
 */
export async function writeGroup(db: Database, rows: Rows): Promise<string[]> {
  const parts = {
    impressions: impressionStatements(db, rows),
    controls: touchControlsStatements([...rows.controls.values()]),
    users: upsertUsersStatements(db, [...rows.users.values()]),
    values: valueStatements(db, rows),
    goals: upsertGoalsStatements(db, [...rows.goals.values()]),
    exposures: exposureStatements(db, rows),
    rampExposures: rampExposureStatements(db, rows),
  };
  // Exposures before conversions: a goal in the same batch as its exposure converts.
  const conversions = conversionStatements(rows);
  const single = Object.values(parts).every((statements) => statements.length <= 1);
  if (single && conversions.length === 0) return firstSeenOf(await oneStatement(db, parts));
  return db.transaction(async (tx) => {
    let touched: TouchedControl[] = [];
    if (single) touched = await oneStatement(tx, parts);
    else {
      // The tables in the order of the single statement's parts, so that every group locks them in
      // the same order whichever way it is written.
      for (const [name, statements] of Object.entries(parts)) {
        const results = await runEach(tx, statements);
        if (name === 'controls') touched = results.flatMap((result) => rowsOf<TouchedControl>(result));
      }
    }
    await runEach(tx, conversions);
    return firstSeenOf(touched);
  });
}

/** Both drivers (node-postgres and PGlite) answer a statement's rows in `rows`. */
function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/**
 * The parts, at most one statement each, as one statement: each a `with` part, the controls' part
 * answering the controls it touched. Parts of one statement run on one snapshot, so none may read
 * what another writes; these write different tables.
 */
async function oneStatement(db: Executor, parts: Record<string, SQLWrapper[]>): Promise<TouchedControl[]> {
  const entries = Object.entries(parts).filter(([, statements]) => statements.length > 0);
  if (entries.length === 0) return [];
  const withParts = sql.join(
    // A query builder's own SQL: embedded as itself, Drizzle would put it in a second pair of brackets.
    entries.map(([name, [statement]]) => sql`${sql.identifier(`w_${name}`)} as (${statement!.getSQL()})`),
    sql`, `,
  );
  const answer = parts.controls!.length
    ? sql`select id, first from w_controls`
    : sql`select null::uuid as id, false as first where false`;
  return rowsOf<TouchedControl>(await db.execute(sql`with ${withParts} ${answer}`));
}

function impressionStatements(db: Executor, rows: Rows): SQLWrapper[] {
  const impressions = [...rows.impressions.values()];
  impressions.sort(
    (a, b) =>
      byText(a.featureControlId, b.featureControlId) ||
      byText(a.day, b.day) ||
      byText(a.variantKey, b.variantKey),
  );
  return chunkStatements(impressions, (chunk) =>
    db
      .insert(impressionCounters)
      .values(chunk)
      .onConflictDoUpdate({
        target: [impressionCounters.featureControlId, impressionCounters.day, impressionCounters.variantKey],
        set: { count: sql`${impressionCounters.count} + excluded.count` },
      }),
  );
}

function valueStatements(db: Executor, rows: Rows): SQLWrapper[] {
  const values = [...rows.values.values()];
  values.sort(
    (a, b) =>
      byText(a.projectId, b.projectId) || byText(a.targetKey, b.targetKey) || byText(a.value, b.value),
  );
  return chunkStatements(values, (chunk) =>
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
function exposureStatements(db: Executor, rows: Rows): SQLWrapper[] {
  const exposures = [...rows.exposures.values()];
  exposures.sort((a, b) => byText(a.experimentId, b.experimentId) || byText(a.userKey, b.userKey));
  return chunkStatements(exposures, (chunk) =>
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

/** A ramp's users by their first exposure in its rule: a user already counted keeps their arm. */
function rampExposureStatements(db: Executor, rows: Rows): SQLWrapper[] {
  const exposures = [...rows.rampExposures.values()];
  exposures.sort((a, b) => byText(a.scheduleId, b.scheduleId) || byText(a.userKey, b.userKey));
  return chunkStatements(exposures, (chunk) => db.insert(rampExposures).values(chunk).onConflictDoNothing());
}

/**
 * Conversions of exposed users: a goal event at or after the user's exposure converts them once (the
 * first such time is kept); every such event adds to their count and value sum. Goal events of users
 * never exposed, or only before their exposure, count nothing.
 */
function conversionStatements(rows: Rows): SQLWrapper[] {
  const conversions = [...rows.conversions.values()];
  conversions.sort((a, b) => byText(a.experimentId, b.experimentId) || byText(a.userKey, b.userKey));
  return chunkStatements(conversions, (chunk) => {
    const values = sql.join(
      chunk.map(
        (row) =>
          sql`(${row.experimentId}::uuid, ${row.userKey}, ${row.firstAt.toISOString()}::timestamptz, ${row.lastAt.toISOString()}::timestamptz, ${row.count}::int, ${row.valueSum}::float8)`,
      ),
      sql`, `,
    );
    return sql`
      update ${experimentExposures} as e
      set converted_at = coalesce(e.converted_at, greatest(v.first_at, e.exposed_at)),
          conversions = e.conversions + v.n,
          value_sum = e.value_sum + v.value_sum
      from (values ${values}) as v(experiment_id, user_key, first_at, last_at, n, value_sum)
      where e.experiment_id = v.experiment_id and e.user_key = v.user_key and e.exposed_at <= v.last_at`;
  });
}

/** Which of these controls, environments, projects, experiments and ramps still exist. */
export async function existing(
  db: Executor,
  ids: {
    controls: string[];
    environments: string[];
    projects: string[];
    experiments: string[];
    ramps: string[];
  },
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
  const ramps = ids.ramps.length
    ? await db.select({ id: schedules.id }).from(schedules).where(inArray(schedules.id, ids.ramps))
    : [];
  return {
    controls: new Set(controls.map((row) => row.id)),
    environments: new Set(envs.map((row) => row.id)),
    projects: new Set(live.map((row) => row.id)),
    experiments: new Set(running.map((row) => row.id)),
    ramps: new Set(ramps.map((row) => row.id)),
  };
}
