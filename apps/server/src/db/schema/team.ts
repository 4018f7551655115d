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

export type InviteRow = typeof invites.$inferSelect;
export type NewInviteRow = typeof invites.$inferInsert;
export type RoleRow = typeof roles.$inferSelect;
export type NewRoleRow = typeof roles.$inferInsert;
export type UserRoleRow = typeof userRoles.$inferSelect;
