import { and, asc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { containsPattern } from '../../db/text-search';
import { users } from '../../db/schema/index';
import type { MemberName } from './team.types';

/** The columns of a {@link MemberName}. */
const nameColumns = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
};

/** Members of the organisation by id (any state: a maintainer keeps their name once archived). */
export async function byIds(
  db: Executor,
  organisationId: string,
  ids: readonly string[],
): Promise<MemberName[]> {
  if (ids.length === 0) return [];
  return db
    .select(nameColumns)
    .from(users)
    .where(and(eq(users.organisationId, organisationId), inArray(users.id, [...ids])));
}

/** Activated, live members whose name or e-mail contains `text`, by name. */
export async function search(
  db: Executor,
  organisationId: string,
  text: string | undefined,
  limit: number,
): Promise<MemberName[]> {
  const pattern = text ? containsPattern(text) : undefined;
  return db
    .select(nameColumns)
    .from(users)
    .where(
      and(
        eq(users.organisationId, organisationId),
        eq(users.activated, true),
        eq(users.archived, false),
        pattern
          ? or(
              ilike(users.email, pattern),
              ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern),
            )
          : undefined,
      ),
    )
    .orderBy(asc(users.firstName), asc(users.lastName), asc(users.email))
    .limit(limit);
}

/** Activated, live members with their authorities: who may be asked to review (change requests). */
export async function activeWithAuthorities(
  db: Executor,
  organisationId: string,
): Promise<(MemberName & { authorities: string[] })[]> {
  return db
    .select({ ...nameColumns, authorities: users.authorities })
    .from(users)
    .where(
      and(eq(users.organisationId, organisationId), eq(users.activated, true), eq(users.archived, false)),
    );
}
