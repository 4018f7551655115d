import { sql } from 'drizzle-orm';
import { index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { archivable, createdAt, id, timestamptz } from './columns.ts';
import { users } from './identity.ts';
import { organisationId } from './tenant.ts';

/**
 * Personal access tokens (admin tab Access Tokens). Only the SHA-256 of the token is stored;
 * the plaintext is shown once, at creation. The list shows `{tokenPrefix}…{tokenLastFour}`.
 */
export const personalAccessTokens = pgTable(
  'personal_access_tokens',
  {
    id: id(),
    organisationId: organisationId(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    /** Non-secret leading characters (e.g. the scheme prefix) for the masked display. */
    tokenPrefix: text('token_prefix').notNull(),
    tokenLastFour: text('token_last_four').notNull(),
    /** Null: the token does not expire. */
    expiresAt: timestamptz('expires_at'),
    ...archivable(),
    createdAt: createdAt(),
    lastUsedAt: timestamptz('last_used_at'),
  },
  (t) => [
    uniqueIndex('personal_access_tokens_token_hash_unique').on(t.tokenHash),
    index('personal_access_tokens_organisation_user_idx')
      .on(t.organisationId, t.userId, t.createdAt)
      .where(sql`archived = false`),
    index('personal_access_tokens_user_idx').on(t.userId),
  ],
);

export type PersonalAccessTokenRow = typeof personalAccessTokens.$inferSelect;
export type NewPersonalAccessTokenRow = typeof personalAccessTokens.$inferInsert;
