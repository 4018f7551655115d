import { and, asc, count, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { containsPattern } from '../../db/text-search';
import { projects, targets, type NewProjectRow } from '../../db/schema/index';
import type { ProjectRecord } from './projects.types';

/** The columns of a {@link ProjectRecord}. */
const projectColumns = {
  id: projects.id,
  key: projects.key,
  name: projects.name,
  url: projects.url,
  tags: projects.tags,
  updatedAt: projects.updatedAt,
};

const live = (organisationId: string): SQL =>
  and(eq(projects.organisationId, organisationId), eq(projects.archived, false))!;

/** Live projects by name, optionally those whose name or key contains `query` (any case). */
export async function list(db: Executor, organisationId: string, query?: string): Promise<ProjectRecord[]> {
  const where = query
    ? and(
        live(organisationId),
        or(ilike(projects.name, containsPattern(query)), ilike(projects.key, containsPattern(query))),
      )
    : live(organisationId);
  return db.select(projectColumns).from(projects).where(where).orderBy(asc(projects.name), asc(projects.key));
}

export async function findByKey(
  db: Executor,
  organisationId: string,
  key: string,
): Promise<ProjectRecord | null> {
  const [row] = await db
    .select(projectColumns)
    .from(projects)
    .where(and(live(organisationId), eq(projects.key, key)))
    .limit(1);
  return row ?? null;
}

export async function findById(
  db: Executor,
  organisationId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<ProjectRecord | null> {
  const query = db
    .select(projectColumns)
    .from(projects)
    .where(and(live(organisationId), eq(projects.id, id)))
    .limit(1);
  const [row] = options.forUpdate ? await query.for('update', { of: projects }) : await query;
  return row ?? null;
}

export async function countLive(db: Executor, organisationId: string): Promise<number> {
  const [row] = await db.select({ total: count() }).from(projects).where(live(organisationId));
  return row?.total ?? 0;
}

export async function insert(db: Executor, row: NewProjectRow): Promise<ProjectRecord> {
  const [created] = await db.insert(projects).values(row).returning(projectColumns);
  return created!;
}

export async function update(
  db: Executor,
  organisationId: string,
  id: string,
  changes: Partial<NewProjectRow>,
): Promise<ProjectRecord> {
  const [updated] = await db
    .update(projects)
    .set(changes)
    .where(and(eq(projects.organisationId, organisationId), eq(projects.id, id)))
    .returning(projectColumns);
  return updated!;
}

export async function listTargets(db: Executor, organisationId: string, projectIds: string[]) {
  if (projectIds.length === 0) return [];
  return db
    .select({ projectId: targets.projectId, key: targets.key, name: targets.name, type: targets.type })
    .from(targets)
    .where(and(eq(targets.organisationId, organisationId), inArray(targets.projectId, projectIds)))
    .orderBy(asc(targets.name), asc(targets.key));
}
