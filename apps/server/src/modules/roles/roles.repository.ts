import { and, asc, eq, inArray, ne, notInArray, sql } from 'drizzle-orm';
import type { RoleGrant } from '@vexil/core';
import type { Executor } from '../../db/client';
import { projects, roles, userRoles, users } from '../../db/schema/index';
import type { MemberRecord, RoleHolder, RoleRecord } from './roles.types';

const roleColumns = {
  id: roles.id,
  name: roles.name,
  description: roles.description,
  grants: roles.grants,
  createdAt: roles.createdAt,
};

/** The organisation's roles, by name. */
export async function list(db: Executor, organisationId: string): Promise<RoleRecord[]> {
  return db
    .select(roleColumns)
    .from(roles)
    .where(eq(roles.organisationId, organisationId))
    .orderBy(asc(sql`lower(${roles.name})`), asc(roles.id));
}

/** One role of the organisation, or null: another organisation's is not found. */
export async function findById(
  tx: Executor,
  organisationId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<RoleRecord | null> {
  const query = tx
    .select(roleColumns)
    .from(roles)
    .where(and(eq(roles.id, id), eq(roles.organisationId, organisationId)))
    .limit(1);
  const [row] = options.forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

/** Another role of the organisation with this name, compared without case. */
export async function findByName(
  tx: Executor,
  organisationId: string,
  name: string,
  exceptId?: string,
): Promise<RoleRecord | null> {
  const [row] = await tx
    .select(roleColumns)
    .from(roles)
    .where(
      and(
        eq(roles.organisationId, organisationId),
        eq(sql`lower(${roles.name})`, name.toLowerCase()),
        exceptId === undefined ? undefined : ne(roles.id, exceptId),
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function insert(
  tx: Executor,
  values: { organisationId: string; name: string; description: string; grants: RoleGrant[]; at: Date },
): Promise<RoleRecord> {
  const [row] = await tx
    .insert(roles)
    .values({
      organisationId: values.organisationId,
      name: values.name,
      description: values.description,
      grants: values.grants,
      createdAt: values.at,
      updatedAt: values.at,
    })
    .returning(roleColumns);
  return row!;
}

export async function update(
  tx: Executor,
  organisationId: string,
  id: string,
  values: { name: string; description: string; grants: RoleGrant[]; at: Date },
): Promise<RoleRecord> {
  const [row] = await tx
    .update(roles)
    .set({ name: values.name, description: values.description, grants: values.grants, updatedAt: values.at })
    .where(and(eq(roles.id, id), eq(roles.organisationId, organisationId)))
    .returning(roleColumns);
  return row!;
}

/** Deletes the role; the holdings go with it. */
export async function remove(tx: Executor, organisationId: string, id: string): Promise<void> {
  await tx.delete(roles).where(and(eq(roles.id, id), eq(roles.organisationId, organisationId)));
}

/** The live members holding these roles, by name. */
export async function holdersOf(
  db: Executor,
  organisationId: string,
  roleIds: readonly string[],
): Promise<RoleHolder[]> {
  if (roleIds.length === 0) return [];
  return db
    .select({
      roleId: userRoles.roleId,
      userId: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
    })
    .from(userRoles)
    .innerJoin(users, and(eq(users.id, userRoles.userId), eq(users.organisationId, userRoles.organisationId)))
    .where(
      and(
        eq(userRoles.organisationId, organisationId),
        inArray(userRoles.roleId, [...roleIds]),
        eq(users.archived, false),
      ),
    )
    .orderBy(asc(sql`lower(${users.firstName})`), asc(sql`lower(${users.lastName})`), asc(users.email));
}

/** The live members of the organisation among these ids (activated or not). */
export async function membersByIds(
  tx: Executor,
  organisationId: string,
  ids: readonly string[],
): Promise<MemberRecord[]> {
  if (ids.length === 0) return [];
  return tx
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      activated: users.activated,
    })
    .from(users)
    .where(
      and(eq(users.organisationId, organisationId), inArray(users.id, [...ids]), eq(users.archived, false)),
    );
}

/** Makes exactly these members the holders of the role. */
export async function setHolders(
  tx: Executor,
  organisationId: string,
  roleId: string,
  userIds: readonly string[],
  at: Date,
): Promise<void> {
  await tx
    .delete(userRoles)
    .where(
      and(
        eq(userRoles.organisationId, organisationId),
        eq(userRoles.roleId, roleId),
        userIds.length === 0 ? undefined : notInArray(userRoles.userId, [...userIds]),
      ),
    );
  if (userIds.length === 0) return;
  await tx
    .insert(userRoles)
    .values(userIds.map((userId) => ({ organisationId, userId, roleId, createdAt: at })))
    .onConflictDoNothing();
}

/** Which of these project ids are live projects of the organisation. */
export async function liveProjects(
  tx: Executor,
  organisationId: string,
  ids: readonly string[],
): Promise<{ id: string; name: string }[]> {
  if (ids.length === 0) return [];
  return tx
    .select({ id: projects.id, name: projects.name })
    .from(projects)
    .where(
      and(
        eq(projects.organisationId, organisationId),
        inArray(projects.id, [...ids]),
        eq(projects.archived, false),
      ),
    );
}

/** The names of the organisation's live projects by id, to name them in audit entries. */
export async function projectNames(tx: Executor, organisationId: string): Promise<Map<string, string>> {
  const rows = await tx
    .select({ id: projects.id, name: projects.name })
    .from(projects)
    .where(and(eq(projects.organisationId, organisationId), eq(projects.archived, false)));
  return new Map(rows.map((row) => [row.id, row.name]));
}

/**
 * The grants of every custom role a member holds: one query through the (user_id, role_id) primary
 * key, run at each authenticated request.
 */
export async function grantsOf(db: Executor, organisationId: string, userId: string): Promise<RoleGrant[]> {
  const rows = await db
    .select({ grants: roles.grants })
    .from(userRoles)
    .innerJoin(roles, and(eq(roles.id, userRoles.roleId), eq(roles.organisationId, userRoles.organisationId)))
    .where(and(eq(userRoles.userId, userId), eq(userRoles.organisationId, organisationId)));
  return rows.flatMap((row) => row.grants);
}

/** The grants of the custom roles every member holds, by member (change requests' reviewers). */
export async function grantsByMember(
  db: Executor,
  organisationId: string,
): Promise<Map<string, RoleGrant[]>> {
  const rows = await db
    .select({ userId: userRoles.userId, grants: roles.grants })
    .from(userRoles)
    .innerJoin(roles, and(eq(roles.id, userRoles.roleId), eq(roles.organisationId, userRoles.organisationId)))
    .where(eq(userRoles.organisationId, organisationId));
  const byMember = new Map<string, RoleGrant[]>();
  for (const row of rows) byMember.set(row.userId, [...(byMember.get(row.userId) ?? []), ...row.grants]);
  return byMember;
}
