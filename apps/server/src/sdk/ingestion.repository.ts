import { inArray, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import {
  environments,
  featureControls,
  goals,
  impressionCounters,
  targetUsers,
  targetValues,
  type NewImpressionCounterRow,
  type NewTargetUserRow,
  type NewTargetValueRow,
} from '../db/schema/index';

const CHUNK = 500;

async function chunked<T>(rows: T[], write: (chunk: T[]) => Promise<unknown>) {
  for (let start = 0; start < rows.length; start += CHUNK) await write(rows.slice(start, start + CHUNK));
}

export async function addImpressions(db: Executor, rows: NewImpressionCounterRow[]) {
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

/** Marks controls available and moves their last impression forward (never back). */
export async function touchControls(
  db: Executor,
  rows: { controlId: string; lastImpressionAt: Date | null; seenAt: Date }[],
) {
  for (const row of rows) {
    await db
      .update(featureControls)
      .set({
        available: true,
        availableAt: sql`coalesce(${featureControls.availableAt}, ${row.seenAt.toISOString()}::timestamptz)`,
        ...(row.lastImpressionAt
          ? {
              lastImpressionAt: sql`greatest(${featureControls.lastImpressionAt}, ${row.lastImpressionAt.toISOString()}::timestamptz)`,
            }
          : {}),
      })
      .where(sql`${featureControls.id} = ${row.controlId}`);
  }
}

export async function upsertUsers(db: Executor, rows: NewTargetUserRow[]) {
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

export async function upsertValues(db: Executor, rows: NewTargetValueRow[]) {
  await chunked(rows, (chunk) =>
    db
      .insert(targetValues)
      .values(chunk)
      .onConflictDoUpdate({
        target: [targetValues.projectId, targetValues.targetKey, targetValues.value],
        set: { lastSeenAt: sql`excluded.last_seen_at` },
      }),
  );
}

export async function upsertGoals(
  db: Executor,
  rows: { organisationId: string; projectId: string; key: string; lastSeenAt: Date }[],
) {
  await chunked(rows, (chunk) =>
    db
      .insert(goals)
      .values(chunk)
      .onConflictDoUpdate({
        target: [goals.projectId, goals.key],
        set: { lastSeenAt: sql`excluded.last_seen_at` },
      }),
  );
}

/** Which of these controls and environments still exist. */
export async function existing(db: Executor, controlIds: string[], environmentIds: string[]) {
  const controls = controlIds.length
    ? await db
        .select({ id: featureControls.id })
        .from(featureControls)
        .where(inArray(featureControls.id, controlIds))
    : [];
  const envs = environmentIds.length
    ? await db
        .select({ id: environments.id })
        .from(environments)
        .where(inArray(environments.id, environmentIds))
    : [];
  return { controls: new Set(controls.map((r) => r.id)), environments: new Set(envs.map((r) => r.id)) };
}
