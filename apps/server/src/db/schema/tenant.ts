import { uuid } from 'drizzle-orm/pg-core';
import { organisations } from './identity.ts';

/**
 * `organisation_id uuid not null references organisations(id) on delete cascade`, carried by
 * every tenant-owned row, even one reachable through its parent, so every query can be scoped.
 */
export const organisationId = () =>
  uuid('organisation_id')
    .notNull()
    .references(() => organisations.id, { onDelete: 'cascade' });
