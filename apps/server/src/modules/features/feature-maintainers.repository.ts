import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { features } from '../../db/schema/index';
import { featureColumns } from './features.repository';
import type { FeatureRecord } from './features.types';

/** The features a member maintains (deleted ones too: their history stays true), locked for a change. */
export async function maintainedBy(
  db: Executor,
  organisationId: string,
  userId: string,
): Promise<FeatureRecord[]> {
  return db
    .select(featureColumns)
    .from(features)
    .where(and(eq(features.organisationId, organisationId), eq(features.maintainerId, userId)))
    .for('update');
}

/** Leaves a feature without a maintainer, as a settings change at `at`. */
export async function clearMaintainer(
  db: Executor,
  organisationId: string,
  featureId: string,
  at: Date,
): Promise<void> {
  await db
    .update(features)
    .set({ maintainerId: null, updatedAt: at })
    .where(and(eq(features.organisationId, organisationId), eq(features.id, featureId)));
}
