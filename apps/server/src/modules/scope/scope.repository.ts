import { and, asc, eq, or, type SQL } from 'drizzle-orm';
import type { EnvironmentRef, ProjectRef } from '@vexil/core';
import type { Executor } from '../../db/client';
import { isUuid } from '../../db/text-search';
import { environments, projects } from '../../db/schema/index';

const projectColumns = { id: projects.id, key: projects.key, name: projects.name };
const environmentColumns = {
  id: environments.id,
  key: environments.key,
  name: environments.name,
  production: environments.production,
  tags: environments.tags,
  sdkCanCreateFeatures: environments.sdkCanCreateFeatures,
  project: projectColumns,
};

const liveProject = (organisationId: string): SQL =>
  and(eq(projects.organisationId, organisationId), eq(projects.archived, false))!;

const liveEnvironment = (organisationId: string): SQL =>
  and(
    eq(environments.organisationId, organisationId),
    eq(environments.archived, false),
    eq(projects.archived, false),
  )!;

export async function projectByKey(
  db: Executor,
  organisationId: string,
  key: string,
): Promise<ProjectRef | null> {
  const [row] = await db
    .select(projectColumns)
    .from(projects)
    .where(and(liveProject(organisationId), eq(projects.key, key)))
    .limit(1);
  return row ?? null;
}

export async function projectById(
  db: Executor,
  organisationId: string,
  id: string,
): Promise<ProjectRef | null> {
  const [row] = await db
    .select(projectColumns)
    .from(projects)
    .where(and(liveProject(organisationId), eq(projects.id, id)))
    .limit(1);
  return row ?? null;
}

/** By the project's key and the environment's key, or its id (the key wins when both match). */
export async function environmentByKey(
  db: Executor,
  organisationId: string,
  projectKey: string,
  keyOrId: string,
): Promise<EnvironmentRef | null> {
  const match = isUuid(keyOrId)
    ? or(eq(environments.key, keyOrId), eq(environments.id, keyOrId))!
    : eq(environments.key, keyOrId);
  const rows = await db
    .select(environmentColumns)
    .from(environments)
    .innerJoin(projects, eq(projects.id, environments.projectId))
    .where(and(liveEnvironment(organisationId), eq(projects.key, projectKey), match))
    .limit(2);
  return rows.find((row) => row.key === keyOrId) ?? rows[0] ?? null;
}

export async function environmentById(
  db: Executor,
  organisationId: string,
  id: string,
): Promise<EnvironmentRef | null> {
  const [row] = await db
    .select(environmentColumns)
    .from(environments)
    .innerJoin(projects, eq(projects.id, environments.projectId))
    .where(and(liveEnvironment(organisationId), eq(environments.id, id)))
    .limit(1);
  return row ?? null;
}

/** Live environments of a live project, oldest first. */
export async function environmentsOf(
  db: Executor,
  organisationId: string,
  projectId: string,
): Promise<EnvironmentRef[]> {
  return db
    .select(environmentColumns)
    .from(environments)
    .innerJoin(projects, eq(projects.id, environments.projectId))
    .where(and(liveEnvironment(organisationId), eq(environments.projectId, projectId)))
    .orderBy(asc(environments.createdAt), asc(environments.name));
}
