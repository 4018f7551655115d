import { and, eq, inArray, sql, type SQLWrapper } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { byText, chunkStatements } from '../../db/batches';
import { goals } from '../../db/schema/index';

/** A goal key an SDK tracked in a project, and when. */
export type SeenGoal = { organisationId: string; projectId: string; key: string; lastSeenAt: Date };

/*
 * The goals table's writes other modules make in their own transaction
 * (docs/adr/0019-modules-own-their-tables.md: the experiments module owns the table): the SDK API's
 * event ingestion records the goal keys it sees, a feature's settings name the goals it counts.
 */

export function upsertGoalsStatements(db: Executor, rows: SeenGoal[]): SQLWrapper[] {
  rows.sort((a, b) => byText(a.projectId, b.projectId) || byText(a.key, b.key));
  return chunkStatements(rows, (chunk) =>
    db
      .insert(goals)
      .values(chunk)
      .onConflictDoUpdate({
        target: [goals.projectId, goals.key],
        set: { lastSeenAt: sql`greatest(${goals.lastSeenAt}, excluded.last_seen_at)` },
      }),
  );
}

/** The ids of the project's goals `keys`, creating those the project does not have yet. */
export async function ensureGoals(
  db: Executor,
  organisationId: string,
  projectId: string,
  keys: string[],
): Promise<string[]> {
  if (keys.length === 0) return [];
  await db
    .insert(goals)
    .values(keys.map((key) => ({ organisationId, projectId, key })))
    .onConflictDoNothing();
  const rows = await db
    .select({ id: goals.id })
    .from(goals)
    .where(and(eq(goals.projectId, projectId), inArray(goals.key, keys)));
  return rows.map((row) => row.id);
}
