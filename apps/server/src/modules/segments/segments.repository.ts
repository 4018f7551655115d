import { and, asc, eq, ilike, or } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { containsPattern } from '../../db/text-search';
import { environments, projects, segments, type NewSegmentRow } from '../../db/schema/index';
import type { SegmentInScope, SegmentRecord } from './segments.types';

/** The columns of a {@link SegmentRecord}. */
const segmentColumns = {
  id: segments.id,
  environmentId: segments.environmentId,
  key: segments.key,
  name: segments.name,
  description: segments.description,
  updatedAt: segments.updatedAt,
};

export async function list(
  db: Executor,
  organisationId: string,
  environmentId: string,
  text: string | undefined,
): Promise<SegmentRecord[]> {
  const pattern = text ? containsPattern(text) : undefined;
  return db
    .select(segmentColumns)
    .from(segments)
    .where(
      and(
        eq(segments.organisationId, organisationId),
        eq(segments.environmentId, environmentId),
        pattern
          ? or(
              ilike(segments.name, pattern),
              ilike(segments.key, pattern),
              ilike(segments.description, pattern),
            )
          : undefined,
      ),
    )
    .orderBy(asc(segments.name), asc(segments.key));
}

export async function keysOf(
  db: Executor,
  organisationId: string,
  environmentId: string,
): Promise<Set<string>> {
  const rows = await db
    .select({ key: segments.key })
    .from(segments)
    .where(and(eq(segments.organisationId, organisationId), eq(segments.environmentId, environmentId)));
  return new Set(rows.map((r) => r.key));
}

/** A segment of a live environment of a live project, with both. */
export async function findById(
  db: Executor,
  organisationId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<SegmentInScope | null> {
  const query = db
    .select({
      segment: segmentColumns,
      environment: {
        id: environments.id,
        key: environments.key,
        name: environments.name,
        production: environments.production,
        tags: environments.tags,
      },
      project: { id: projects.id, key: projects.key, name: projects.name },
    })
    .from(segments)
    .innerJoin(environments, eq(environments.id, segments.environmentId))
    .innerJoin(projects, eq(projects.id, environments.projectId))
    .where(
      and(
        eq(segments.organisationId, organisationId),
        eq(segments.id, id),
        eq(environments.archived, false),
        eq(projects.archived, false),
      ),
    )
    .limit(1);
  const [row] = options.forUpdate ? await query.for('update', { of: segments }) : await query;
  return row ?? null;
}

export async function keyTaken(db: Executor, environmentId: string, key: string): Promise<boolean> {
  const [row] = await db
    .select({ id: segments.id })
    .from(segments)
    .where(and(eq(segments.environmentId, environmentId), eq(segments.key, key)))
    .limit(1);
  return row !== undefined;
}

export async function insert(db: Executor, row: NewSegmentRow): Promise<SegmentRecord> {
  const [created] = await db.insert(segments).values(row).returning(segmentColumns);
  return created!;
}

export async function update(
  db: Executor,
  organisationId: string,
  id: string,
  changes: Partial<NewSegmentRow>,
): Promise<SegmentRecord> {
  const [updated] = await db
    .update(segments)
    .set(changes)
    .where(and(eq(segments.organisationId, organisationId), eq(segments.id, id)))
    .returning(segmentColumns);
  return updated!;
}

export async function remove(db: Executor, organisationId: string, id: string): Promise<void> {
  await db.delete(segments).where(and(eq(segments.organisationId, organisationId), eq(segments.id, id)));
}

/** A segment of an environment by its key. */
export async function findByKey(
  db: Executor,
  organisationId: string,
  environmentId: string,
  key: string,
): Promise<SegmentRecord | undefined> {
  const [row] = await db
    .select(segmentColumns)
    .from(segments)
    .where(
      and(
        eq(segments.organisationId, organisationId),
        eq(segments.environmentId, environmentId),
        eq(segments.key, key),
      ),
    )
    .limit(1);
  return row;
}
