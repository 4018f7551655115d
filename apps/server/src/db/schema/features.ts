import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { archivable, createdAt, emptyTextArray, id, notArchived, timestamptz, updatedAt } from './columns.ts';
import { users } from './identity.ts';
import { integrations } from './integrations.ts';
import { environments, projects } from './projects.ts';
import { organisationId } from './tenant.ts';
import type { ConditionValue, JsonValue, Rule } from '@vexil/core';

/**
 * Rules are stored exactly as the SDK FeatureControl JSON carries them (core's `Rule`), so the SDK
 * payload is built without reshaping: in evaluation order, the default rule last with no audience.
 */
export type ControlRule = Rule;
export type { ConditionValue, JsonValue };

export const features = pgTable(
  'features',
  {
    id: id(),
    organisationId: organisationId(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Not editable after creation; the SDKs evaluate by it. */
    key: text('key').notNull(),
    description: text('description').notNull().default(''),
    permanent: boolean('permanent').notNull().default(false),
    tags: text('tags').array().notNull().default(emptyTextArray),
    maintainerId: uuid('maintainer_id').references(() => users.id, { onDelete: 'set null' }),
    /** Null when created by an SDK registration or when the author was removed. */
    createdById: uuid('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    ...archivable(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('features_project_key_unique').on(t.projectId, t.key).where(notArchived),
    index('features_project_name_idx').on(t.projectId, t.name),
    // Home "Recent" list across the organisation.
    index('features_organisation_updated_idx').on(t.organisationId, t.updatedAt).where(notArchived),
    // Home "Maintaining" list.
    index('features_maintainer_idx').on(t.maintainerId).where(notArchived),
    index('features_created_by_idx').on(t.createdById),
  ],
);

export const variants = pgTable(
  'variants',
  {
    id: id(),
    organisationId: organisationId(),
    featureId: uuid('feature_id')
      .notNull()
      .references(() => features.id, { onDelete: 'cascade' }),
    /** Locked once saved: existing variants can't be re-keyed or removed (docs/product.md §5). */
    key: text('key').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    value: jsonb('value').$type<JsonValue>(),
    /** Display and SDK order. */
    position: integer('position').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('variants_feature_key_unique').on(t.featureId, t.key)],
);

export const bookmarks = pgTable(
  'bookmarks',
  {
    id: id(),
    organisationId: organisationId(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    featureId: uuid('feature_id')
      .notNull()
      .references(() => features.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    // Also serves the Home "Bookmarked" list (leading user_id).
    uniqueIndex('bookmarks_user_feature_unique').on(t.userId, t.featureId),
    index('bookmarks_feature_idx').on(t.featureId),
  ],
);

/** Issue-tracker tickets linked to a feature (docs/product.md §3 Feature.jiraIssues: key, title, url). */
export const featureIssueLinks = pgTable(
  'feature_issue_links',
  {
    id: id(),
    organisationId: organisationId(),
    featureId: uuid('feature_id')
      .notNull()
      .references(() => features.id, { onDelete: 'cascade' }),
    /** The installation the link came through, if any; the link outlives its removal. */
    integrationId: uuid('integration_id').references(() => integrations.id, { onDelete: 'set null' }),
    /** Issue key, e.g. ABC-123 (normalised upper case). */
    issueKey: text('issue_key').notNull(),
    title: text('title').notNull().default(''),
    url: text('url'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('feature_issue_links_feature_issue_unique').on(t.featureId, t.issueKey),
    // The issue tracker's panel asks which features link an issue.
    index('feature_issue_links_issue_idx').on(t.organisationId, t.issueKey),
    index('feature_issue_links_integration_idx').on(t.integrationId),
  ],
);

/**
 * A feature in one environment: on/off, targeting rules and what the SDKs reported. One row per
 * (feature, environment), created with the feature or the environment.
 * trafficStatus, targetingStatus, staleDays and rulesDescription are computed, not stored;
 * today's impressions come from impression_counters.
 */
export const featureControls = pgTable(
  'feature_controls',
  {
    id: id(),
    organisationId: organisationId(),
    featureId: uuid('feature_id')
      .notNull()
      .references(() => features.id, { onDelete: 'cascade' }),
    environmentId: uuid('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    enabled: boolean('enabled').notNull().default(false),
    offVariantKey: text('off_variant_key').notNull().default('off'),
    rules: jsonb('rules').$type<ControlRule[]>().notNull().default([]),
    /** Served by the browser endpoint /api/js/v1 (docs/sdk-protocol.md §8 `inClientApi`). */
    inClientApi: boolean('in_client_api').notNull().default(true),
    /** Registered by an SDK in this environment (docs/sdk-protocol.md §5; docs/product.md §4 Availability). */
    available: boolean('available').notNull().default(false),
    availableAt: timestamptz('available_at'),
    /** Latest impression flushed from the SDK event ingestion. */
    lastImpressionAt: timestamptz('last_impression_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('feature_controls_feature_environment_unique').on(t.featureId, t.environmentId),
    // Builds an environment's SDK snapshot and its feature list.
    index('feature_controls_environment_idx').on(t.environmentId),
    // When a feature last changed (its latest control change) for the feature lists sorted by it:
    // one index-only lookup per feature.
    index('feature_controls_feature_updated_idx').on(t.featureId, t.updatedAt),
  ],
);

export type FeatureRow = typeof features.$inferSelect;
export type NewFeatureRow = typeof features.$inferInsert;
export type VariantRow = typeof variants.$inferSelect;
export type NewVariantRow = typeof variants.$inferInsert;
export type BookmarkRow = typeof bookmarks.$inferSelect;
export type NewBookmarkRow = typeof bookmarks.$inferInsert;
export type FeatureIssueLinkRow = typeof featureIssueLinks.$inferSelect;
export type NewFeatureIssueLinkRow = typeof featureIssueLinks.$inferInsert;
export type FeatureControlRow = typeof featureControls.$inferSelect;
export type NewFeatureControlRow = typeof featureControls.$inferInsert;
