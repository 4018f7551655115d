import { and, asc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { invites, organisations, users, type OneTimeTokenPurpose } from '../../db/schema/index';

export type OrganisationRecord = { id: string; name: string; domain: string };
export type AccountRecord = { id: string; email: string; firstName: string; lastName: string };
export type TokenOwner = { organisationId: string; userId: string };

/** An invitation by its activation key, with its organisation and pending member. */
export type InvitationRecord = {
  id: string;
  organisationId: string;
  organisationName: string;
  organisationDomain: string;
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  expiresAt: Date | null;
  acceptedAt: Date | null;
  userActivated: boolean;
  userArchived: boolean;
};

export const RESET_PURPOSE = 'reset_password' satisfies OneTimeTokenPurpose;

/** The organisation of a (lowercase) domain. */
export async function findOrganisationByDomain(
  db: Executor,
  domain: string,
): Promise<OrganisationRecord | null> {
  const [row] = await db
    .select({ id: organisations.id, name: organisations.name, domain: organisations.domain })
    .from(organisations)
    .where(eq(organisations.domain, domain))
    .limit(1);
  return row ?? null;
}

/** An activated, live member of the organisation by e-mail (lowercase). */
export async function findActiveAccount(
  db: Executor,
  organisationId: string,
  email: string,
): Promise<AccountRecord | null> {
  const [row] = await db
    .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(
      and(
        eq(users.organisationId, organisationId),
        eq(users.email, email),
        eq(users.activated, true),
        eq(users.archived, false),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** The same, by id, with its organisation's domain: the member a reset key was issued to. */
export async function findActiveAccountById(
  db: Executor,
  organisationId: string,
  userId: string,
): Promise<(AccountRecord & { organisationDomain: string }) | null> {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      organisationDomain: organisations.domain,
    })
    .from(users)
    .innerJoin(organisations, eq(organisations.id, users.organisationId))
    .where(
      and(
        eq(users.organisationId, organisationId),
        eq(users.id, userId),
        eq(users.activated, true),
        eq(users.archived, false),
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function findInvitation(
  db: Executor,
  activationTokenHash: string,
  options: { forUpdate?: boolean } = {},
): Promise<InvitationRecord | null> {
  const query = db
    .select({
      id: invites.id,
      organisationId: invites.organisationId,
      organisationName: organisations.name,
      organisationDomain: organisations.domain,
      userId: invites.userId,
      email: invites.email,
      firstName: users.firstName,
      lastName: users.lastName,
      expiresAt: invites.expiresAt,
      acceptedAt: invites.acceptedAt,
      userActivated: users.activated,
      userArchived: users.archived,
    })
    .from(invites)
    .innerJoin(organisations, eq(organisations.id, invites.organisationId))
    .innerJoin(users, and(eq(users.id, invites.userId), eq(users.organisationId, invites.organisationId)))
    .where(eq(invites.activationTokenHash, activationTokenHash))
    .limit(1);
  const [row] = options.forUpdate ? await query.for('update', { of: invites }) : await query;
  return row ?? null;
}

/** The organisations where `email` (lowercase) is an activated, live member, by name. */
export async function organisationsOfEmail(db: Executor, email: string): Promise<OrganisationRecord[]> {
  return db
    .select({ id: organisations.id, name: organisations.name, domain: organisations.domain })
    .from(users)
    .innerJoin(organisations, eq(organisations.id, users.organisationId))
    .where(and(eq(users.email, email), eq(users.activated, true), eq(users.archived, false)))
    .orderBy(asc(organisations.name), asc(organisations.domain));
}
