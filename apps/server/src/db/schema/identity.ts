import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, emptyTextArray, id, timestamptz, updatedAt } from './columns.ts';

export interface OrganisationSettings {
  jiraEnabled?: boolean;
}

export interface UserSettings {
  /** ISO date-time at which the welcome walkthrough was closed. */
  introReadDate?: string | null;
}

export const organisations = pgTable(
  'organisations',
  {
    id: id(),
    name: text('name').notNull(),
    /** Sub-domain of the organisation: lowercase letters, digits and hyphens (docs/product.md §5). */
    domain: text('domain').notNull(),
    settings: jsonb('settings').$type<OrganisationSettings>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('organisations_domain_unique').on(t.domain),
    check('organisations_domain_lowercase', sql`domain = lower(domain)`),
  ],
);

export const users = pgTable(
  'users',
  {
    id: id(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    /** Always stored lowercase, which makes the per-organisation uniqueness case-insensitive. */
    email: text('email').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    /** scrypt hash; null until the user (or invitee) has set a password. */
    passwordHash: text('password_hash'),
    /** ROLE_* authorities (docs/product.md §6). */
    authorities: text('authorities').array().notNull().default(emptyTextArray),
    activated: boolean('activated').notNull().default(false),
    activatedDate: timestamptz('activated_date'),
    langKey: text('lang_key').notNull().default('en'),
    settings: jsonb('settings').$type<UserSettings>().notNull().default({}),
    archived: boolean('archived').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Also serves "users by organisation" (leading column).
    uniqueIndex('users_organisation_email_unique').on(t.organisationId, t.email),
    // Find-organisation looks a person up by e-mail across organisations.
    index('users_email_idx').on(t.email),
    check('users_email_lowercase', sql`email = lower(email)`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 of the session token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    rememberMe: boolean('remember_me').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    revokedAt: timestamptz('revoked_at'),
    createdAt: createdAt(),
    lastUsedAt: timestamptz('last_used_at').notNull().defaultNow(),
    userAgent: text('user_agent'),
    ip: text('ip'),
  },
  (t) => [
    uniqueIndex('sessions_token_hash_unique').on(t.tokenHash),
    index('sessions_user_idx').on(t.userId),
    index('sessions_expires_at_idx').on(t.expiresAt),
  ],
);

export const oneTimeTokenPurposes = ['login', 'reset_password', 'activation', 'invite'] as const;
export type OneTimeTokenPurpose = (typeof oneTimeTokenPurposes)[number];

export const oneTimeTokens = pgTable(
  'one_time_tokens',
  {
    id: id(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** One of `oneTimeTokenPurposes` (typed as string for callers; the check constraint enforces it). */
    purpose: text('purpose').notNull(),
    /** SHA-256 of the token sent by e-mail or in a redirect. */
    tokenHash: text('token_hash').notNull(),
    /** A login token of single sign-on: the provider's display name, which the sign-in's audit entry names. */
    via: text('via'),
    expiresAt: timestamptz('expires_at').notNull(),
    usedAt: timestamptz('used_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('one_time_tokens_token_hash_unique').on(t.tokenHash),
    index('one_time_tokens_user_idx').on(t.userId),
    check(
      'one_time_tokens_purpose_check',
      sql`purpose in ('login', 'reset_password', 'activation', 'invite')`,
    ),
  ],
);

/**
 * A sign-up wizard in progress (docs/product.md §4 "Signup wizard"). Not tenant-owned: the organisation
 * is only created by createaccount, which consumes the row.
 */
export const signups = pgTable(
  'signups',
  {
    id: id(),
    email: text('email').notNull(),
    /** SHA-256 of the `once` token returned by registeremail and sent back with the pin. */
    onceTokenHash: text('once_token_hash').notNull(),
    /** Hash of the 6-digit pin e-mailed to the address. */
    pinHash: text('pin_hash').notNull(),
    /** Wrong pins tried; the service refuses further tries past its limit. */
    attempts: integer('attempts').notNull().default(0),
    beta: boolean('beta').notNull().default(false),
    verifiedAt: timestamptz('verified_at'),
    /** Set when createaccount used this sign-up; it can't be used twice. */
    completedAt: timestamptz('completed_at'),
    expiresAt: timestamptz('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('signups_once_token_hash_unique').on(t.onceTokenHash),
    index('signups_email_idx').on(t.email),
    index('signups_expires_at_idx').on(t.expiresAt),
    check('signups_email_lowercase', sql`email = lower(email)`),
  ],
);

export type OrganisationRow = typeof organisations.$inferSelect;
export type NewOrganisationRow = typeof organisations.$inferInsert;
export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
export type SessionRow = typeof sessions.$inferSelect;
export type NewSessionRow = typeof sessions.$inferInsert;
export type OneTimeTokenRow = typeof oneTimeTokens.$inferSelect;
export type NewOneTimeTokenRow = typeof oneTimeTokens.$inferInsert;
export type SignupRow = typeof signups.$inferSelect;
export type NewSignupRow = typeof signups.$inferInsert;
