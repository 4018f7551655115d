import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { RoleGrant } from '@vexil/core';
import { createdAt, id, timestamptz, updatedAt } from './columns.ts';
import { users } from './identity.ts';
import { organisationId } from './tenant.ts';

/**
 * An invitation to join the organisation. Inviting creates the pending (not activated) user at
 * once, so seats, "Invitation Pending" and "Cancel Invite" all work on the users table; this row
 * carries what the invitee page needs (GET /api/v1/signup/invitee/{activationKey}).
 */
export const invites = pgTable(
  'invites',
  {
    id: id(),
    organisationId: organisationId(),
    /** Lowercase, like users.email. */
    email: text('email').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    invitedById: uuid('invited_by_id').references(() => users.id, { onDelete: 'set null' }),
    /** The pending user; cancelling the invite (deleting that user) deletes the invite. */
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 of the activation key in the /invited/{activationKey} link. */
    activationTokenHash: text('activation_token_hash').notNull(),
    /** Null: the link does not expire. */
    expiresAt: timestamptz('expires_at'),
    acceptedAt: timestamptz('accepted_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('invites_activation_token_hash_unique').on(t.activationTokenHash),
    index('invites_organisation_created_idx').on(t.organisationId, t.createdAt),
    index('invites_user_idx').on(t.userId),
    index('invites_invited_by_idx').on(t.invitedById),
    check('invites_email_lowercase', sql`email = lower(email)`),
  ],
);

/**
 * A custom role of the organisation (Role Management): a name, a description and grants, each adding
 * create/update/delete rights on some resources within some projects and environments to the rights
 * of the member's authority (core's `Grant`, docs/product.md §6).
 */
export const roles = pgTable(
  'roles',
  {
    id: id(),
    organisationId: organisationId(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    grants: jsonb('grants').$type<RoleGrant[]>().notNull().default([]),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('roles_organisation_name_unique').on(t.organisationId, t.name)],
);

/**
 * Which members hold which custom roles. Read at every authenticated request (by user), and by role
 * when a role is deleted or listed; a member's or a role's deletion removes the holding.
 */
export const userRoles = pgTable(
  'user_roles',
  {
    organisationId: organisationId(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roleId: uuid('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'user_roles_pk', columns: [t.userId, t.roleId] }),
    index('user_roles_role_idx').on(t.roleId),
  ],
);

/**
 * A member's identity at a single sign-on provider: its issuer and its subject (`sub`), bound on the
 * member's first sign-in through that provider (docs/adr/0014-single-sign-on.md). Later sign-ins find
 * the member by it, never by e-mail, so a changed e-mail at the provider cannot move the identity to
 * another member. One identity per member and issuer; a member's removal removes theirs.
 */
export const memberIdentities = pgTable(
  'member_identities',
  {
    id: id(),
    organisationId: organisationId(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('member_identities_subject_unique').on(t.organisationId, t.issuer, t.subject),
    uniqueIndex('member_identities_user_issuer_unique').on(t.userId, t.issuer),
  ],
);

/**
 * Someone removed from the organisation: single sign-on does not let them join again, by their e-mail
 * or by an identity they had, until an admin invites that e-mail again (which deletes the rows).
 */
export const memberRemovals = pgTable(
  'member_removals',
  {
    id: id(),
    organisationId: organisationId(),
    /** The removed member's e-mail, lowercase like users.email. */
    email: text('email').notNull(),
    /** With `subject`: an identity the member had at a single sign-on provider; null for the e-mail's row. */
    issuer: text('issuer'),
    subject: text('subject'),
    createdAt: createdAt(),
  },
  (t) => [
    index('member_removals_email_idx').on(t.organisationId, t.email),
    index('member_removals_subject_idx')
      .on(t.organisationId, t.issuer, t.subject)
      .where(sql`subject is not null`),
    check('member_removals_email_lowercase', sql`email = lower(email)`),
  ],
);

export type InviteRow = typeof invites.$inferSelect;
export type NewInviteRow = typeof invites.$inferInsert;
export type RoleRow = typeof roles.$inferSelect;
export type NewRoleRow = typeof roles.$inferInsert;
export type UserRoleRow = typeof userRoles.$inferSelect;
export type MemberIdentityRow = typeof memberIdentities.$inferSelect;
export type MemberRemovalRow = typeof memberRemovals.$inferSelect;
