import { and, asc, eq, ilike } from 'drizzle-orm';
import type { Rule } from '@vexil/core';
import type { Executor } from '../../db/client';
import { containsPattern } from '../../db/text-search';
import { featureControls, features, targetValues, targets, type NewTargetRow } from '../../db/schema/index';
import type { TargetRecord } from './targets.types';

/** The columns of a {@link TargetRecord}. */
const targetColumns = { id: targets.id, key: targets.key, name: targets.name, type: targets.type };

export async function listByProject(
  db: Executor,
  organisationId: string,
  projectId: string,
): Promise<TargetRecord[]> {
  return db
    .select(targetColumns)
    .from(targets)
    .where(and(eq(targets.organisationId, organisationId), eq(targets.projectId, projectId)))
    .orderBy(asc(targets.name), asc(targets.key));
}

export async function keyTaken(db: Executor, projectId: string, key: string): Promise<boolean> {
  const [row] = await db
    .select({ id: targets.id })
    .from(targets)
    .where(and(eq(targets.projectId, projectId), eq(targets.key, key)))
    .limit(1);
  return row !== undefined;
}

export async function insert(db: Executor, row: NewTargetRow): Promise<TargetRecord> {
  const [created] = await db.insert(targets).values(row).returning(targetColumns);
  return created!;
}

/** Values SDK users reported for an attribute, containing `text`. */
export async function seenValues(
  db: Executor,
  projectId: string,
  targetKey: string,
  text: string | undefined,
  limit: number,
): Promise<string[]> {
  const pattern = text ? containsPattern(text) : undefined;
  const rows = await db
    .select({ value: targetValues.value })
    .from(targetValues)
    .where(
      and(
        eq(targetValues.projectId, projectId),
        eq(targetValues.targetKey, targetKey),
        pattern ? ilike(targetValues.value, pattern) : undefined,
      ),
    )
    .orderBy(asc(targetValues.value))
    .limit(limit);
  return rows.map((r) => r.value);
}

/** The rules of every live feature's controls in a project (to collect values used for a target). */
export async function rulesOfProject(
  db: Executor,
  organisationId: string,
  projectId: string,
): Promise<Rule[][]> {
  const rows = await db
    .select({ rules: featureControls.rules })
    .from(featureControls)
    .innerJoin(features, eq(features.id, featureControls.featureId))
    .where(
      and(
        eq(featureControls.organisationId, organisationId),
        eq(features.projectId, projectId),
        eq(features.archived, false),
      ),
    );
  return rows.map((r) => r.rules);
}
