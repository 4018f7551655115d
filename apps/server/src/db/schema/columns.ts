import { sql } from 'drizzle-orm';
import { boolean, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Column builders shared by every table, so that the conventions live in one place. */

/** `timestamptz`, read and written as a JS `Date`. */
export const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** `id uuid primary key default gen_random_uuid()`. */
export const id = () => uuid('id').primaryKey().defaultRandom();

export const createdAt = () => timestamptz('created_at').notNull().defaultNow();

/** Set to now() on insert and by Drizzle on every `update()` (raw SQL updates must set it themselves). */
export const updatedAt = () =>
  timestamptz('updated_at')
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());

/** Soft removal (docs/product.md §4): rows stay for history and statistics but leave every list. */
export const archivable = () => ({
  archived: boolean('archived').notNull().default(false),
  archivedAt: timestamptz('archived_at'),
});

/** Default for `text[]` columns. */
export const emptyTextArray = sql`'{}'::text[]`;

/** Predicate of the partial indexes that ignore archived rows. */
export const notArchived = sql`archived = false`;
