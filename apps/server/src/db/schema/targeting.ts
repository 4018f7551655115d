import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, timestamptz, updatedAt } from './columns.ts';
import type { ConditionValue } from './features.ts';
import { environments, projects } from './projects.ts';
import { organisationId } from './tenant.ts';

export const targetTypes = ['string', 'number', 'date', 'segment'] as const;
export type TargetType = (typeof targetTypes)[number];

/** A user attribute that rules can target (docs/product.md §3 Target). */
export const targets = pgTable(
  'targets',
  {
    id: id(),
    organisationId: organisationId(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    /** The attribute name the SDK user carries, e.g. `tier` or `featureflow.user.id`. */
    key: text('key').notNull(),
    name: text('name').notNull(),
    type: text('type', { enum: targetTypes }).notNull().default('string'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('targets_project_key_unique').on(t.projectId, t.key),
    check('targets_type_check', sql`type in ('string', 'number', 'date', 'segment')`),
  ],
);

/**
 * Attribute values seen on SDK users, offered as suggestions in the rule editor
 * (GET /projects/{projectKey}/targets/{target}/values?query=). Keyed by attribute name rather
 * than by a targets row: values are collected before anyone declares the target. Scalars are
 * stored as text.
 */
export const targetValues = pgTable(
  'target_values',
  {
    id: id(),
    organisationId: organisationId(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    targetKey: text('target_key').notNull(),
    value: text('value').notNull(),
    createdAt: createdAt(),
    lastSeenAt: timestamptz('last_seen_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('target_values_project_target_value_unique').on(t.projectId, t.targetKey, t.value)],
);

/** A user cohort of an environment (docs/product.md §3 Segment), targeted with the in/notIn operators. */
export const segments = pgTable(
  'segments',
  {
    id: id(),
    organisationId: organisationId(),
    environmentId: uuid('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('segments_environment_key_unique').on(t.environmentId, t.key)],
);

export type TargetUserAttributes = Record<string, ConditionValue | ConditionValue[]>;

/**
 * An end user seen by the SDK API in an environment (docs/product.md §3 Target user; Users page). One row
 * per (environment, SDK user id), upserted by the event ingestion with the latest attributes.
 * Also the source of usage `applicationUniqueUsersUsed`: distinct `user_key` of the organisation
 * with `last_seen_at` in the billing period.
 */
export const targetUsers = pgTable(
  'target_users',
  {
    id: id(),
    organisationId: organisationId(),
    environmentId: uuid('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    /** The SDK user's `id` (e.g. `user-1`, `anonymous:…`). */
    userKey: text('user_key').notNull(),
    attributes: jsonb('attributes').$type<TargetUserAttributes>().notNull().default({}),
    createdAt: createdAt(),
    lastSeenAt: timestamptz('last_seen_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('target_users_environment_user_unique').on(t.environmentId, t.userKey),
    index('target_users_environment_last_seen_idx').on(t.environmentId, t.lastSeenAt),
    index('target_users_organisation_last_seen_idx').on(t.organisationId, t.lastSeenAt),
  ],
);

export type TargetRow = typeof targets.$inferSelect;
export type NewTargetRow = typeof targets.$inferInsert;
export type TargetValueRow = typeof targetValues.$inferSelect;
export type NewTargetValueRow = typeof targetValues.$inferInsert;
export type SegmentRow = typeof segments.$inferSelect;
export type NewSegmentRow = typeof segments.$inferInsert;
export type TargetUserRow = typeof targetUsers.$inferSelect;
export type NewTargetUserRow = typeof targetUsers.$inferInsert;
