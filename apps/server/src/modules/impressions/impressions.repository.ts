import { and, asc, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { impressionCounters } from '../../db/schema/index';

export type ImpressionCount = { controlId: string; variantKey: string; count: number };

/** Impressions per control and variant on one day. */
export async function countsOn(
  db: Executor,
  organisationId: string,
  controlIds: readonly string[],
  day: string,
): Promise<ImpressionCount[]> {
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
        inArray(impressionCounters.featureControlId, [...controlIds]),
        eq(impressionCounters.day, day),
      ),
    );
}

/** Impressions of one control per variant and day from `fromDay` on. */
export async function dailyCounts(db: Executor, organisationId: string, controlId: string, fromDay: string) {
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

/** The sum of a control's impression counters of these variants, every day. */
export async function totalOf(
  db: Executor,
  organisationId: string,
  controlId: string,
  variantKeys: readonly string[],
): Promise<number> {
  if (variantKeys.length === 0) return 0;
  const [row] = await db
    .select({ total: sql<string | null>`sum(${impressionCounters.count})` })
    .from(impressionCounters)
    .where(
      and(
        eq(impressionCounters.organisationId, organisationId),
        eq(impressionCounters.featureControlId, controlId),
        inArray(impressionCounters.variantKey, [...variantKeys]),
      ),
    );
  return Number(row?.total ?? 0);
}
