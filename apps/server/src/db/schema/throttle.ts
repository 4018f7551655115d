import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.ts';

/**
 * Counters every instance shares (db/counters.ts): the login throttle's failures and waits, the
 * e-mails an address was sent, the requests a client address made to a limited route. Keyed by the
 * SHA-256 of what they count, so that no e-mail or client address is stored; a row past `expires_at`
 * counts as absent and is swept away now and then.
 */
export const throttleCounters = pgTable(
  'throttle_counters',
  {
    keyHash: text('key_hash').primaryKey(),
    count: integer('count').notNull(),
    /** The window's end, or for the login throttle the time its run of failures is forgotten. */
    expiresAt: timestamptz('expires_at').notNull(),
    /** Login throttle: no attempt before this time. */
    blockedUntil: timestamptz('blocked_until'),
  },
  (t) => [index('throttle_counters_expires_at_idx').on(t.expiresAt)],
);
