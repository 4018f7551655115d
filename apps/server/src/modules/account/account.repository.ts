import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { environments, organisations, projects, users } from '../../db/schema/index';

export async function findUser(db: Executor, organisationId: string, userId: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.organisationId, organisationId), eq(users.id, userId)))
    .limit(1);
  return row ?? null;
}

export async function findOrganisation(db: Executor, organisationId: string) {
  const [row] = await db.select().from(organisations).where(eq(organisations.id, organisationId)).limit(1);
  return row ?? null;
}

/** Live projects with their live environments, in a stable order for menus. */
export async function listProjectsWithEnvironments(db: Executor, organisationId: string) {
  const projectRows = await db
    .select()
    .from(projects)
    .where(and(eq(projects.organisationId, organisationId), eq(projects.archived, false)))
    .orderBy(asc(projects.name));
  if (projectRows.length === 0) return [];
  const environmentRows = await db
    .select()
    .from(environments)
    .where(
      and(
        eq(environments.organisationId, organisationId),
        eq(environments.archived, false),
        inArray(
          environments.projectId,
          projectRows.map((p) => p.id),
        ),
      ),
    )
    .orderBy(asc(environments.createdAt), asc(environments.name));
  return projectRows.map((project) => ({
    project,
    environments: environmentRows.filter((e) => e.projectId === project.id),
  }));
}

export async function markIntroRead(db: Executor, organisationId: string, userId: string, at: Date) {
  const user = await findUser(db, organisationId, userId);
  if (!user) return null;
  const settings = { ...user.settings, introReadDate: at.toISOString() };
  await db
    .update(users)
    .set({ settings, updatedAt: at })
    .where(and(eq(users.organisationId, organisationId), eq(users.id, userId)));
  return settings;
}
