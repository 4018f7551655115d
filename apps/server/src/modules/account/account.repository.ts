import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { organisations, users } from '../../db/schema/index';
import type { OrganisationRecord, UserRecord } from './account.types';

/** The columns of a {@link UserRecord}: never the password hash. */
const userColumns = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  authorities: users.authorities,
  langKey: users.langKey,
  activatedDate: users.activatedDate,
  settings: users.settings,
};

export async function findUser(
  db: Executor,
  organisationId: string,
  userId: string,
): Promise<UserRecord | null> {
  const [row] = await db
    .select(userColumns)
    .from(users)
    .where(and(eq(users.organisationId, organisationId), eq(users.id, userId)))
    .limit(1);
  return row ?? null;
}

export async function findOrganisation(
  db: Executor,
  organisationId: string,
): Promise<OrganisationRecord | null> {
  const [row] = await db
    .select({
      id: organisations.id,
      name: organisations.name,
      domain: organisations.domain,
      settings: organisations.settings,
    })
    .from(organisations)
    .where(eq(organisations.id, organisationId))
    .limit(1);
  return row ?? null;
}
