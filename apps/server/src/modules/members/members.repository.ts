import { and, arrayOverlaps, asc, count, desc, eq, inArray, isNull } from 'drizzle-orm';
import { AUTHORITIES } from '@vexil/core';
import type { Executor } from '../../db/client';
import { invites, organisations, users } from '../../db/schema/index';
import type { MemberRecord, PendingInvitation } from './members.types';

const memberColumns = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  authorities: users.authorities,
  activated: users.activated,
  activatedDate: users.activatedDate,
  archived: users.archived,
  langKey: users.langKey,
  settings: users.settings,
};

/** The organisation admins' authorities: either one makes a member an organisation admin. */
const ADMIN_AUTHORITIES = [AUTHORITIES.ROLE_ORGANISATION_ADMIN, AUTHORITIES.ROLE_ADMIN];

/** Live members and pending invitations, active ones first, then by name and e-mail. */
export async function listMembers(db: Executor, organisationId: string): Promise<MemberRecord[]> {
  return db
    .select(memberColumns)
    .from(users)
    .where(and(eq(users.organisationId, organisationId), eq(users.archived, false)))
    .orderBy(desc(users.activated), asc(users.firstName), asc(users.lastName), asc(users.email));
}

/** One member (any state) by id, locked for the caller's transaction when asked. */
export async function findMember(
  db: Executor,
  organisationId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<MemberRecord | null> {
  const query = db
    .select(memberColumns)
    .from(users)
    .where(and(eq(users.organisationId, organisationId), eq(users.id, id)))
    .limit(1);
  const [row] = options.forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

/** Members (any state) whose e-mail is one of `emails` (lowercase). */
export async function findByEmails(
  db: Executor,
  organisationId: string,
  emails: readonly string[],
): Promise<MemberRecord[]> {
  if (emails.length === 0) return [];
  return db
    .select(memberColumns)
    .from(users)
    .where(and(eq(users.organisationId, organisationId), inArray(users.email, [...emails])));
}

/** Active organisation admins (ROLE_ORGANISATION_ADMIN or ROLE_ADMIN). */
export async function countAdmins(db: Executor, organisationId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .where(
      and(
        eq(users.organisationId, organisationId),
        eq(users.activated, true),
        eq(users.archived, false),
        arrayOverlaps(users.authorities, ADMIN_AUTHORITIES),
      ),
    );
  return Number(row?.n ?? 0);
}

/** The organisation's name, for the invitation e-mail. */
export async function organisationName(db: Executor, organisationId: string): Promise<string | null> {
  const [row] = await db
    .select({ name: organisations.name })
    .from(organisations)
    .where(eq(organisations.id, organisationId))
    .limit(1);
  return row?.name ?? null;
}

/** Whether the member's invitation is still the one with this key (not replaced) and not accepted. */
export async function invitationOpen(
  db: Executor,
  organisationId: string,
  userId: string,
  activationTokenHash: string,
): Promise<boolean> {
  const rows = await db
    .select({ id: invites.id })
    .from(invites)
    .where(
      and(
        eq(invites.organisationId, organisationId),
        eq(invites.userId, userId),
        eq(invites.activationTokenHash, activationTokenHash),
        isNull(invites.acceptedAt),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/** When each pending member's open invitation expires (null: no open invitation, or no expiry). */
export async function invitationExpiries(
  db: Executor,
  organisationId: string,
  userIds: readonly string[],
): Promise<Map<string, Date | null>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ userId: invites.userId, expiresAt: invites.expiresAt })
    .from(invites)
    .where(
      and(
        eq(invites.organisationId, organisationId),
        inArray(invites.userId, [...userIds]),
        isNull(invites.acceptedAt),
      ),
    )
    .orderBy(asc(invites.createdAt));
  // The newest invitation of a member wins.
  return new Map(rows.map((row) => [row.userId, row.expiresAt]));
}

type NewMember = {
  organisationId: string;
  email: string;
  firstName: string;
  lastName: string;
  authorities: string[];
  at: Date;
};

/**
 * A new member: pending (invited, not activated) or active at once (single sign-on); either way
 * without a password.
 */
export async function insertMember(
  tx: Executor,
  values: NewMember & { activated: boolean },
): Promise<string> {
  const [row] = await tx
    .insert(users)
    .values({
      organisationId: values.organisationId,
      email: values.email,
      firstName: values.firstName,
      lastName: values.lastName,
      authorities: values.authorities,
      activated: values.activated,
      activatedDate: values.activated ? values.at : null,
      createdAt: values.at,
      updatedAt: values.at,
    })
    .returning({ id: users.id });
  return row!.id;
}

/**
 * Makes an existing, not activated member pending again for a new invitation: the names given
 * replace the stored ones, and nothing of an earlier life (password, role) is kept.
 */
export async function resetPendingMember(
  tx: Executor,
  organisationId: string,
  id: string,
  values: { firstName: string; lastName: string; authorities: string[]; at: Date },
): Promise<void> {
  await tx
    .update(users)
    .set({
      firstName: values.firstName,
      lastName: values.lastName,
      authorities: values.authorities,
      activated: false,
      activatedDate: null,
      passwordHash: null,
      archived: false,
      updatedAt: values.at,
    })
    .where(and(eq(users.organisationId, organisationId), eq(users.id, id)));
}

/**
 * The member's only open invitation from now on: earlier ones are deleted, so their links stop
 * working at once.
 */
export async function replaceInvitation(tx: Executor, invitation: PendingInvitation): Promise<void> {
  await tx
    .delete(invites)
    .where(and(eq(invites.organisationId, invitation.organisationId), eq(invites.userId, invitation.userId)));
  await tx.insert(invites).values({
    organisationId: invitation.organisationId,
    email: invitation.email,
    firstName: invitation.firstName,
    lastName: invitation.lastName,
    invitedById: invitation.invitedById,
    userId: invitation.userId,
    activationTokenHash: invitation.activationTokenHash,
    expiresAt: invitation.expiresAt,
    createdAt: invitation.createdAt,
  });
}

export async function updateMember(
  tx: Executor,
  organisationId: string,
  id: string,
  values: { firstName: string; lastName: string; authorities: string[]; at: Date },
): Promise<MemberRecord> {
  const [row] = await tx
    .update(users)
    .set({
      firstName: values.firstName,
      lastName: values.lastName,
      authorities: values.authorities,
      updatedAt: values.at,
    })
    .where(and(eq(users.organisationId, organisationId), eq(users.id, id)))
    .returning(memberColumns);
  return row!;
}

/**
 * Deletes a member or a pending invitation. Their sessions, access tokens, bookmarks and invitations
 * go with the row; features they maintained keep no maintainer, and audit entries keep their words.
 */
export async function deleteMember(tx: Executor, organisationId: string, id: string): Promise<void> {
  await tx.delete(users).where(and(eq(users.organisationId, organisationId), eq(users.id, id)));
}

/** A pending member becomes active, with these names; their open invitations count as accepted. */
export async function activatePendingMember(
  tx: Executor,
  organisationId: string,
  id: string,
  values: { firstName: string; lastName: string; at: Date },
): Promise<void> {
  await tx
    .update(users)
    .set({
      firstName: values.firstName,
      lastName: values.lastName,
      activated: true,
      activatedDate: values.at,
      updatedAt: values.at,
    })
    .where(and(eq(users.organisationId, organisationId), eq(users.id, id), eq(users.activated, false)));
  await tx
    .update(invites)
    .set({ acceptedAt: values.at })
    .where(
      and(eq(invites.organisationId, organisationId), eq(invites.userId, id), isNull(invites.acceptedAt)),
    );
}

/** A new organisation's first member: an activated organisation admin with the password they chose. */
export async function insertAdmin(
  tx: Executor,
  values: {
    organisationId: string;
    email: string;
    firstName: string;
    lastName: string;
    passwordHash: string;
    at: Date;
  },
): Promise<{ id: string }> {
  const [row] = await tx
    .insert(users)
    .values({
      organisationId: values.organisationId,
      email: values.email,
      firstName: values.firstName,
      lastName: values.lastName,
      passwordHash: values.passwordHash,
      authorities: [AUTHORITIES.ROLE_ORGANISATION_ADMIN],
      activated: true,
      activatedDate: values.at,
      createdAt: values.at,
      updatedAt: values.at,
    })
    .returning({ id: users.id });
  return row!;
}

/** The invited member becomes active with the names and password they chose; the invitation is accepted. */
export async function activateInvited(
  tx: Executor,
  owner: { organisationId: string; userId: string },
  invitationId: string,
  values: { firstName: string; lastName: string; passwordHash: string; at: Date },
): Promise<void> {
  await tx
    .update(users)
    .set({
      firstName: values.firstName,
      lastName: values.lastName,
      passwordHash: values.passwordHash,
      activated: true,
      activatedDate: values.at,
      updatedAt: values.at,
    })
    .where(and(eq(users.organisationId, owner.organisationId), eq(users.id, owner.userId)));
  await tx.update(invites).set({ acceptedAt: values.at }).where(eq(invites.id, invitationId));
}

export async function setPassword(
  tx: Executor,
  owner: { organisationId: string; userId: string },
  passwordHash: string,
  at: Date,
): Promise<void> {
  await tx
    .update(users)
    .set({ passwordHash, updatedAt: at })
    .where(and(eq(users.organisationId, owner.organisationId), eq(users.id, owner.userId)));
}

/** The member's settings with the welcome walkthrough closed at `at`; null for no such member. */
export async function markIntroRead(
  db: Executor,
  organisationId: string,
  userId: string,
  at: Date,
): Promise<MemberRecord['settings'] | null> {
  const member = await findMember(db, organisationId, userId);
  if (!member) return null;
  const settings = { ...member.settings, introReadDate: at.toISOString() };
  await db
    .update(users)
    .set({ settings, updatedAt: at })
    .where(and(eq(users.organisationId, organisationId), eq(users.id, userId)));
  return settings;
}
