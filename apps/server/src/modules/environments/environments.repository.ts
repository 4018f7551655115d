import { and, asc, count, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { isUuid } from '../../db/text-search';
import { environments, projects, type NewEnvironmentRow } from '../../db/schema/index';
import type { EnvironmentRecord, EnvironmentWithProject } from './environments.types';

/** The columns of an {@link EnvironmentRecord}. */
const environmentColumns = {
  id: environments.id,
  projectId: environments.projectId,
  key: environments.key,
  name: environments.name,
  url: environments.url,
  color: environments.color,
  local: environments.local,
  production: environments.production,
  tags: environments.tags,
  sdkCanCreateFeatures: environments.sdkCanCreateFeatures,
  serverApiKey: environments.serverApiKey,
  jsApiKey: environments.jsApiKey,
  updatedAt: environments.updatedAt,
};

const projectColumns = { id: projects.id, key: projects.key, name: projects.name };

const live = (organisationId: string): SQL =>
  and(eq(environments.organisationId, organisationId), eq(environments.archived, false))!;

/**
 * Whether an environment counts as production, as core's `isProductionEnvironment` decides: the
 * "Production Environment?" marker or a `production` tag (tags are stored normalised, so lowercase).
 */
const countsAsProduction = sql<boolean>`(${environments.production} or 'production' = any(${environments.tags}))`;

/**
 * Live environments of the given projects in the order every menu and list shows them: the
 * non-production ones first, so that whatever opens "the first environment" of a project does not
 * land in production, then oldest first (name, then id, settle ties between rows created together).
 */
export async function listByProjects(
  db: Executor,
  organisationId: string,
  projectIds: string[],
): Promise<EnvironmentRecord[]> {
  if (projectIds.length === 0) return [];
  return db
    .select(environmentColumns)
    .from(environments)
    .where(and(live(organisationId), inArray(environments.projectId, projectIds)))
    .orderBy(
      asc(countsAsProduction),
      asc(environments.createdAt),
      asc(environments.name),
      asc(environments.id),
    );
}

/** A live environment of a live project, by the project's key and the environment's key or id. */
export async function findByProjectKey(
  db: Executor,
  organisationId: string,
  projectKey: string,
  keyOrId: string,
): Promise<EnvironmentWithProject | null> {
  const match = isUuid(keyOrId)
    ? or(eq(environments.key, keyOrId), eq(environments.id, keyOrId))!
    : eq(environments.key, keyOrId);
  const rows = await db
    .select({ environment: environmentColumns, project: projectColumns })
    .from(environments)
    .innerJoin(projects, eq(projects.id, environments.projectId))
    .where(and(live(organisationId), match, eq(projects.key, projectKey), eq(projects.archived, false)))
    .limit(2);
  // A key equal to another environment's id is not possible (keys are not UUID-shaped by
  // accident often, but can be): the key wins.
  return rows.find((row) => row.environment.key === keyOrId) ?? rows[0] ?? null;
}

/** A live environment (of a live project) by id. */
export async function findById(
  db: Executor,
  organisationId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<EnvironmentWithProject | null> {
  const query = db
    .select({ environment: environmentColumns, project: projectColumns })
    .from(environments)
    .innerJoin(projects, eq(projects.id, environments.projectId))
    .where(and(live(organisationId), eq(environments.id, id), eq(projects.archived, false)))
    .limit(1);
  const [row] = options.forUpdate ? await query.for('update', { of: environments }) : await query;
  return row ?? null;
}

export async function keyTaken(db: Executor, projectId: string, key: string): Promise<boolean> {
  const [row] = await db
    .select({ id: environments.id })
    .from(environments)
    .where(
      and(eq(environments.projectId, projectId), eq(environments.key, key), eq(environments.archived, false)),
    )
    .limit(1);
  return row !== undefined;
}

export async function countLiveInProject(db: Executor, organisationId: string, projectId: string) {
  const [row] = await db
    .select({ total: count() })
    .from(environments)
    .where(and(live(organisationId), eq(environments.projectId, projectId)));
  return row?.total ?? 0;
}

export async function insert(db: Executor, row: NewEnvironmentRow): Promise<EnvironmentRecord> {
  const [created] = await db.insert(environments).values(row).returning(environmentColumns);
  return created!;
}

export async function update(
  db: Executor,
  organisationId: string,
  id: string,
  changes: Partial<NewEnvironmentRow>,
): Promise<EnvironmentRecord> {
  const [updated] = await db
    .update(environments)
    .set(changes)
    .where(and(eq(environments.organisationId, organisationId), eq(environments.id, id)))
    .returning(environmentColumns);
  return updated!;
}

/** Archives the live environments of a project (the project is being removed). */
export async function archiveAllOfProject(
  db: Executor,
  organisationId: string,
  projectId: string,
  at: Date,
): Promise<EnvironmentRecord[]> {
  return db
    .update(environments)
    .set({ archived: true, archivedAt: at, updatedAt: at })
    .where(and(live(organisationId), eq(environments.projectId, projectId)))
    .returning(environmentColumns);
}
