import { and, asc, desc, eq, ilike, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { containsPattern } from '../../db/text-search';
import {
  experimentExposures,
  experiments,
  featureControls,
  features,
  goals,
  variants,
  type ControlRule,
} from '../../db/schema/index';
import type { ExperimentRecord, ExperimentWrite, FeatureForExperiment } from './experiments.types';

const experimentColumns = {
  id: experiments.id,
  environmentId: experiments.environmentId,
  featureId: experiments.featureId,
  featureKey: features.key,
  featureName: features.name,
  name: experiments.name,
  description: experiments.description,
  enabled: experiments.enabled,
  mode: experiments.mode,
  goalKey: experiments.goalKey,
  control: experiments.controlVariantKey,
  variation: experiments.variationVariantKey,
  startDate: experiments.startDate,
  endDate: experiments.endDate,
  archived: experiments.archived,
  updatedAt: experiments.updatedAt,
};

/** The live experiments of an environment, newest first. */
export function list(
  db: Executor,
  organisationId: string,
  environmentId: string,
): Promise<ExperimentRecord[]> {
  return db
    .select(experimentColumns)
    .from(experiments)
    .innerJoin(features, eq(features.id, experiments.featureId))
    .where(
      and(
        eq(experiments.organisationId, organisationId),
        eq(experiments.environmentId, environmentId),
        eq(experiments.archived, false),
      ),
    )
    .orderBy(desc(experiments.createdAt), asc(experiments.name));
}

/** An experiment of the organisation, archived or not; `forUpdate` locks its row. */
export async function findById(
  db: Executor,
  organisationId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<ExperimentRecord | null> {
  const query = db
    .select(experimentColumns)
    .from(experiments)
    .innerJoin(features, eq(features.id, experiments.featureId))
    .where(and(eq(experiments.organisationId, organisationId), eq(experiments.id, id)));
  const [row] = options.forUpdate ? await query.for('update', { of: experiments }) : await query;
  return row ?? null;
}

/** A live feature of the organisation with its variant keys, in order. */
export async function featureWithVariants(
  db: Executor,
  organisationId: string,
  featureId: string,
): Promise<FeatureForExperiment | null> {
  const [feature] = await db
    .select({ id: features.id, key: features.key, name: features.name, projectId: features.projectId })
    .from(features)
    .where(
      and(
        eq(features.organisationId, organisationId),
        eq(features.id, featureId),
        eq(features.archived, false),
      ),
    );
  if (!feature) return null;
  const rows = await db
    .select({ key: variants.key })
    .from(variants)
    .where(eq(variants.featureId, featureId))
    .orderBy(asc(variants.position), asc(variants.key));
  return { ...feature, variantKeys: rows.map((row) => row.key) };
}

export async function insert(
  db: Executor,
  row: ExperimentWrite & { organisationId: string; environmentId: string; createdById: string },
): Promise<string> {
  const [inserted] = await db.insert(experiments).values(row).returning({ id: experiments.id });
  return inserted!.id;
}

export async function update(db: Executor, organisationId: string, id: string, row: ExperimentWrite) {
  await db
    .update(experiments)
    .set(row)
    .where(and(eq(experiments.organisationId, organisationId), eq(experiments.id, id)));
}

export async function archive(db: Executor, organisationId: string, id: string, at: Date) {
  await db
    .update(experiments)
    .set({ archived: true, archivedAt: at, enabled: false })
    .where(and(eq(experiments.organisationId, organisationId), eq(experiments.id, id)));
}

/** Records a goal key of a project (named by an experiment); a known key is left as it is. */
export async function ensureGoal(db: Executor, organisationId: string, projectId: string, key: string) {
  await db.insert(goals).values({ organisationId, projectId, key }).onConflictDoNothing();
}

/** The goal keys of a project, optionally containing `text`, alphabetically (at most `limit`). */
export async function goalKeys(
  db: Executor,
  organisationId: string,
  projectId: string,
  text: string | undefined,
  limit: number,
): Promise<string[]> {
  const pattern = text ? containsPattern(text) : undefined;
  const rows = await db
    .select({ key: goals.key })
    .from(goals)
    .where(
      and(
        eq(goals.organisationId, organisationId),
        eq(goals.projectId, projectId),
        pattern ? ilike(goals.key, pattern) : undefined,
      ),
    )
    .orderBy(asc(goals.key))
    .limit(limit);
  return rows.map((row) => row.key);
}

/** Per variant: exposed users, converted users, their goal values, and users seen in both variants. */
export async function variantCounts(db: Executor, organisationId: string, experimentId: string) {
  const rows = await db
    .select({
      variantKey: experimentExposures.variantKey,
      exposures: sql<number>`count(*)::int`,
      conversions: sql<number>`count(${experimentExposures.convertedAt})::int`,
      valueSum: sql<number>`coalesce(sum(${experimentExposures.valueSum}), 0)::float8`,
      crossed: sql<number>`count(*) filter (where ${experimentExposures.crossed})::int`,
    })
    .from(experimentExposures)
    .where(
      and(
        eq(experimentExposures.organisationId, organisationId),
        eq(experimentExposures.experimentId, experimentId),
      ),
    )
    .groupBy(experimentExposures.variantKey);
  return rows;
}

/**
 * New exposures and conversions per UTC day and variant, oldest first: the statistics page adds
 * them up into its cumulative chart and the sequential mode's daily looks.
 */
export async function dailyCounts(db: Executor, organisationId: string, experimentId: string) {
  const scope = and(
    eq(experimentExposures.organisationId, organisationId),
    eq(experimentExposures.experimentId, experimentId),
  );
  const exposedDay = sql<string>`to_char(${experimentExposures.exposedAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  const convertedDay = sql<string>`to_char(${experimentExposures.convertedAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  const [exposed, converted] = [
    await db
      .select({
        day: exposedDay,
        variantKey: experimentExposures.variantKey,
        count: sql<number>`count(*)::int`,
      })
      .from(experimentExposures)
      .where(scope)
      .groupBy(exposedDay, experimentExposures.variantKey),
    await db
      .select({
        day: convertedDay,
        variantKey: experimentExposures.variantKey,
        count: sql<number>`count(*)::int`,
      })
      .from(experimentExposures)
      .where(and(scope, sql`${experimentExposures.convertedAt} is not null`))
      .groupBy(convertedDay, experimentExposures.variantKey),
  ];
  return { exposed, converted };
}

/** The targeting rules of a feature in an environment (empty when it has no control there). */
export async function rulesOf(
  db: Executor,
  organisationId: string,
  featureId: string,
  environmentId: string,
): Promise<ControlRule[]> {
  const [row] = await db
    .select({ rules: featureControls.rules })
    .from(featureControls)
    .where(
      and(
        eq(featureControls.organisationId, organisationId),
        eq(featureControls.featureId, featureId),
        eq(featureControls.environmentId, environmentId),
      ),
    );
  return row?.rules ?? [];
}
