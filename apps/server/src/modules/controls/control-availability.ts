import { sql, type SQLWrapper } from 'drizzle-orm';
import { byText, chunkStatements } from '../../db/batches';
import { featureControls } from '../../db/schema/index';

/** A control an SDK evaluated: when, and its latest impression. */
export type EvaluatedControl = { controlId: string; lastImpressionAt: Date | null; seenAt: Date };

/*
 * The controls' availability as the SDK API's event ingestion writes it, in the ingestion's own
 * transaction (docs/adr/0019-modules-own-their-tables.md: the controls module owns the table).
 */

/** What the statements of {@link touchControlsStatements} answer, a row per control they changed. */
export type TouchedControl = { id: string; first: boolean };

/**
 * Marks controls available and moves their last impression forward (never back): the statements,
 * one per chunk of rows, each answering {@link TouchedControl} rows.
 */
export function touchControlsStatements(rows: EvaluatedControl[]): SQLWrapper[] {
  rows.sort((a, b) => byText(a.controlId, b.controlId));
  return chunkStatements(rows, (chunk) => {
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
    return sql`
      update ${featureControls} as fc
      set available = true,
          available_at = coalesce(fc.available_at, v.seen_at),
          last_impression_at = greatest(fc.last_impression_at, v.last_impression_at)
      from (values ${values}) as v(id, seen_at, last_impression_at)
      where fc.id = v.id
        and (not fc.available or fc.available_at is null
             or v.last_impression_at > coalesce(fc.last_impression_at, '-infinity'::timestamptz))
      returning fc.id, (fc.available_at = v.seen_at) as first`;
  });
}

/** The controls that became available now (evaluated by an SDK for the first time), of touched rows. */
export function firstSeenOf(touched: readonly TouchedControl[]): string[] {
  return touched.filter((row) => row.first).map((row) => row.id);
}
