import { and, eq, inArray, isNotNull, or } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { memberIdentities, memberRemovals } from '../../db/schema/index';

/** An identity at a single sign-on provider: the provider's issuer and the person's subject there. */
export type ProviderIdentity = { issuer: string; subject: string };

/** The member bound to this identity, if any. */
export async function findBoundMember(
  db: Executor,
  organisationId: string,
  identity: ProviderIdentity,
): Promise<string | null> {
  const [row] = await db
    .select({ userId: memberIdentities.userId })
    .from(memberIdentities)
    .where(
      and(
        eq(memberIdentities.organisationId, organisationId),
        eq(memberIdentities.issuer, identity.issuer),
        eq(memberIdentities.subject, identity.subject),
      ),
    )
    .limit(1);
  return row?.userId ?? null;
}

/** Whether the member is already bound to some identity of this issuer. */
export async function hasIdentityAt(
  db: Executor,
  organisationId: string,
  userId: string,
  issuer: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: memberIdentities.id })
    .from(memberIdentities)
    .where(
      and(
        eq(memberIdentities.organisationId, organisationId),
        eq(memberIdentities.userId, userId),
        eq(memberIdentities.issuer, issuer),
      ),
    )
    .limit(1);
  return row !== undefined;
}

export async function bindIdentity(
  tx: Executor,
  organisationId: string,
  userId: string,
  identity: ProviderIdentity,
  at: Date,
): Promise<void> {
  await tx.insert(memberIdentities).values({ organisationId, userId, ...identity, createdAt: at });
}

/** The identities a member is bound to (kept as removals when the member is removed). */
export async function identitiesOf(
  db: Executor,
  organisationId: string,
  userId: string,
): Promise<ProviderIdentity[]> {
  return db
    .select({ issuer: memberIdentities.issuer, subject: memberIdentities.subject })
    .from(memberIdentities)
    .where(and(eq(memberIdentities.organisationId, organisationId), eq(memberIdentities.userId, userId)));
}

/** Keeps a removed member out of single sign-on: their e-mail (lowercase) and each identity they had. */
export async function insertRemoval(
  tx: Executor,
  organisationId: string,
  email: string,
  identities: readonly ProviderIdentity[],
  at: Date,
): Promise<void> {
  await tx
    .insert(memberRemovals)
    .values([
      { organisationId, email, issuer: null, subject: null, createdAt: at },
      ...identities.map((identity) => ({ organisationId, email, ...identity, createdAt: at })),
    ]);
}

/** Whether this e-mail (lowercase) or identity belongs to someone removed from the organisation. */
export async function isRemoved(
  db: Executor,
  organisationId: string,
  email: string,
  identity: ProviderIdentity,
): Promise<boolean> {
  const [row] = await db
    .select({ id: memberRemovals.id })
    .from(memberRemovals)
    .where(
      and(
        eq(memberRemovals.organisationId, organisationId),
        or(
          eq(memberRemovals.email, email),
          and(
            isNotNull(memberRemovals.subject),
            eq(memberRemovals.issuer, identity.issuer),
            eq(memberRemovals.subject, identity.subject),
          ),
        ),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Lifts the removal of these e-mails (lowercase), with the identities removed with them: an invitation does. */
export async function deleteRemovals(
  tx: Executor,
  organisationId: string,
  emails: readonly string[],
): Promise<void> {
  if (emails.length === 0) return;
  await tx
    .delete(memberRemovals)
    .where(
      and(eq(memberRemovals.organisationId, organisationId), inArray(memberRemovals.email, [...emails])),
    );
}
