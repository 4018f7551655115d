import { and, desc, eq, getTableColumns, inArray } from 'drizzle-orm';
import type { VersionedResource } from '@vexil/core';
import type { Executor } from '../../db/client';
import { versions } from '../../db/schema/index';

/** A stored version, as the service reads it. */
export type VersionRecord = typeof versions.$inferSelect;
/** What a new version row holds. */
export type NewVersionRecord = typeof versions.$inferInsert;

/** The resource a history belongs to, within one organisation. */
export type VersionedRef = { organisationId: string; resourceType: VersionedResource; resourceId: string };

const where = (ref: VersionedRef) =>
  and(
    eq(versions.organisationId, ref.organisationId),
    eq(versions.resourceType, ref.resourceType),
    eq(versions.resourceId, ref.resourceId),
  );

/** The newest version of a resource (the unique index's last entry), or undefined before the first. */
export async function latest(db: Executor, ref: VersionedRef): Promise<VersionRecord | undefined> {
  const [row] = await db.select().from(versions).where(where(ref)).orderBy(desc(versions.number)).limit(1);
  return row;
}

/** The newest version of each of these resources of one kind, keyed by resource id. */
export async function latestOfMany(
  db: Executor,
  organisationId: string,
  resourceType: VersionedResource,
  resourceIds: readonly string[],
): Promise<Map<string, VersionRecord>> {
  if (resourceIds.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([versions.resourceId])
    .from(versions)
    .where(
      and(
        eq(versions.organisationId, organisationId),
        eq(versions.resourceType, resourceType),
        inArray(versions.resourceId, [...resourceIds]),
      ),
    )
    .orderBy(versions.resourceId, desc(versions.number));
  return new Map(rows.map((row) => [row.resourceId, row]));
}

/** One version by its number. */
export async function byNumber(
  db: Executor,
  ref: VersionedRef,
  number: number,
): Promise<VersionRecord | undefined> {
  const [row] = await db
    .select()
    .from(versions)
    .where(and(where(ref), eq(versions.number, number)))
    .limit(1);
  return row;
}

/** Versions by their numbers (those that exist), in one read. */
export async function byNumbers(
  db: Executor,
  ref: VersionedRef,
  numbers: readonly number[],
): Promise<VersionRecord[]> {
  return db
    .select()
    .from(versions)
    .where(and(where(ref), inArray(versions.number, [...numbers])));
}

/** A page of a resource's history, newest first, without the snapshots; one more row tells if more follow. */
export async function page(db: Executor, ref: VersionedRef, pageIndex: number, pageSize: number) {
  const { snapshot: _snapshot, ...summary } = getTableColumns(versions);
  return db
    .select(summary)
    .from(versions)
    .where(where(ref))
    .orderBy(desc(versions.number))
    .limit(pageSize + 1)
    .offset(pageIndex * pageSize);
}

/** Stores versions; the unique (resource, number) index refuses a number taken meanwhile. */
export async function insert(db: Executor, rows: readonly NewVersionRecord[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insert(versions).values([...rows]);
}
