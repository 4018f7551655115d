import { and, asc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { featureControls, features, variants, type NewFeatureControlRow } from '../../db/schema/index';

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
