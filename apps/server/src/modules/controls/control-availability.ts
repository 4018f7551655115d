import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { byText, chunked } from '../../db/batches';
import { featureControls } from '../../db/schema/index';

/** A control an SDK evaluated: when, and its latest impression. */
export type EvaluatedControl = { controlId: string; lastImpressionAt: Date | null; seenAt: Date };

/*
 * The controls' availability as the SDK API's event ingestion writes it, in the ingestion's own
 * transaction (docs/adr/0019-modules-own-their-tables.md: the controls module owns the table).
 */

/**
 * Marks controls available and moves their last impression forward (never back), in one statement.
 * Answers the ids of the controls that became available now: evaluated by an SDK for the first time.
 */
export async function touchControls(db: Executor, rows: EvaluatedControl[]): Promise<string[]> {
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
