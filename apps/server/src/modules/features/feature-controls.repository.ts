import { and, asc, eq, gte, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import {
  environments,
  featureControls,
  features,
  impressionCounters,
  projects,
  variants,
  type FeatureControlRow,
  type NewFeatureControlRow,
} from '../../db/schema/index';

/** The live features of a project with their variant keys in order. */
export async function listFeatureVariantKeys(db: Executor, organisationId: string, projectId: string) {
  const rows = await db
    .select({ featureId: features.id, variantKey: variants.key })
    .from(features)
    .leftJoin(variants, eq(variants.featureId, features.id))
    .where(
      and(
        eq(features.organisationId, organisationId),
        eq(features.projectId, projectId),
        eq(features.archived, false),
      ),
    )
    .orderBy(asc(features.id), asc(variants.position), asc(variants.key));
  const byFeature = new Map<string, string[]>();
  for (const row of rows) {
    const keys = byFeature.get(row.featureId) ?? [];
    if (row.variantKey !== null) keys.push(row.variantKey);
    byFeature.set(row.featureId, keys);
  }
  return byFeature;
}

export async function listControlsOfEnvironment(db: Executor, organisationId: string, environmentId: string) {
  return db
    .select()
    .from(featureControls)
    .where(
      and(
        eq(featureControls.organisationId, organisationId),
        eq(featureControls.environmentId, environmentId),
      ),
    );
}

export async function insertControls(db: Executor, rows: NewFeatureControlRow[]): Promise<void> {
  // Chunked: one statement per 500 rows stays far below PostgreSQL's parameter limit.
  for (let start = 0; start < rows.length; start += 500) {
    await db
      .insert(featureControls)
      .values(rows.slice(start, start + 500))
      .onConflictDoNothing();
  }
}

/** Controls of these features in live environments (optionally only `environmentIds`), with the environment. */
export async function controlsOfFeatures(
  db: Executor,
  organisationId: string,
  featureIds: string[],
  environmentIds?: string[],
) {
  if (featureIds.length === 0 || environmentIds?.length === 0) return [];
  return db
    .select({ control: featureControls, environment: { id: environments.id, key: environments.key } })
    .from(featureControls)
    .innerJoin(environments, eq(environments.id, featureControls.environmentId))
    .where(
      and(
        eq(featureControls.organisationId, organisationId),
        inArray(featureControls.featureId, featureIds),
        eq(environments.archived, false),
        environmentIds ? inArray(featureControls.environmentId, environmentIds) : undefined,
      ),
    )
    .orderBy(asc(environments.createdAt), asc(environments.name));
}

/** Impressions per control and variant on one day. */
export async function impressionsOn(db: Executor, organisationId: string, controlIds: string[], day: string) {
  if (controlIds.length === 0) return [];
  return db
    .select({
      controlId: impressionCounters.featureControlId,
      variantKey: impressionCounters.variantKey,
      count: impressionCounters.count,
    })
    .from(impressionCounters)
    .where(
      and(
        eq(impressionCounters.organisationId, organisationId),
        inArray(impressionCounters.featureControlId, controlIds),
        eq(impressionCounters.day, day),
      ),
    );
}

/** Impressions of one control per variant and day from `fromDay` on. */
export async function dailyImpressions(
  db: Executor,
  organisationId: string,
  controlId: string,
  fromDay: string,
) {
  return db
    .select({
      day: impressionCounters.day,
      variantKey: impressionCounters.variantKey,
      count: impressionCounters.count,
    })
    .from(impressionCounters)
    .where(
      and(
        eq(impressionCounters.organisationId, organisationId),
        eq(impressionCounters.featureControlId, controlId),
        gte(impressionCounters.day, fromDay),
      ),
    )
    .orderBy(asc(impressionCounters.day));
}

/** A control of a live feature in a live environment of a live project, with all three. */
export async function findControl(db: Executor, organisationId: string, id: string) {
  const [row] = await db
    .select({ control: featureControls, feature: features, environment: environments, project: projects })
    .from(featureControls)
    .innerJoin(features, eq(features.id, featureControls.featureId))
    .innerJoin(environments, eq(environments.id, featureControls.environmentId))
    .innerJoin(projects, eq(projects.id, features.projectId))
    .where(
      and(
        eq(featureControls.organisationId, organisationId),
        eq(featureControls.id, id),
        eq(features.archived, false),
        eq(environments.archived, false),
        eq(projects.archived, false),
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function updateControl(
  db: Executor,
  organisationId: string,
  id: string,
  changes: Partial<NewFeatureControlRow>,
): Promise<FeatureControlRow> {
  const [row] = await db
    .update(featureControls)
    .set(changes)
    .where(and(eq(featureControls.organisationId, organisationId), eq(featureControls.id, id)))
    .returning();
  return row!;
}

/** Live environments of a project (a new feature gets a control in each). */
export async function liveEnvironmentIds(
  db: Executor,
  organisationId: string,
  projectId: string,
): Promise<string[]> {
  const rows = await db
    .select({ id: environments.id })
    .from(environments)
    .where(
      and(
        eq(environments.organisationId, organisationId),
        eq(environments.projectId, projectId),
        eq(environments.archived, false),
      ),
    );
  return rows.map((r) => r.id);
}
