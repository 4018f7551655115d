import { boolean, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { archivable, createdAt, emptyTextArray, id, notArchived, updatedAt } from './columns.ts';
import { organisationId } from './tenant.ts';

export const projects = pgTable(
  'projects',
  {
    id: id(),
    organisationId: organisationId(),
    name: text('name').notNull(),
    /** Short lowercase abbreviation (docs/product.md §5), not editable after creation. */
    key: text('key').notNull(),
    url: text('url'),
    tags: text('tags').array().notNull().default(emptyTextArray),
    ...archivable(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('projects_organisation_key_unique').on(t.organisationId, t.key).where(notArchived)],
);

export const DEFAULT_ENVIRONMENT_COLOR = '#1273de';

export const environments = pgTable(
  'environments',
  {
    id: id(),
    organisationId: organisationId(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Lowercase, [a-z0-9_-] (docs/product.md §5), not editable after creation. */
    key: text('key').notNull(),
    url: text('url'),
    color: text('color').notNull().default(DEFAULT_ENVIRONMENT_COLOR),
    local: boolean('local').notNull().default(false),
    /** "Production Environment?": only production editors may modify it (docs/product.md §6). */
    production: boolean('production').notNull().default(false),
    tags: text('tags').array().notNull().default(emptyTextArray),
    /**
     * Whether SDK registration (PUT /api/sdk/v1/register) with this environment's server key may create
     * features. The service sets it on every insert (off in production, on elsewhere); the column
     * default is the safe one for any other writer.
     */
    sdkCanCreateFeatures: boolean('sdk_can_create_features').notNull().default(false),
    /**
     * SDK keys (docs/sdk-protocol.md §1) are stored in plaintext: admins read them back on the Api keys
     * modal, the client key is public by design, and the SDK API resolves a key with one
     * unique-index lookup (or from its in-memory snapshot). They are random, unique across all
     * organisations, and revoked by replacing the value.
     */
    serverApiKey: text('server_api_key').notNull(),
    jsApiKey: text('js_api_key').notNull(),
    ...archivable(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('environments_project_key_unique').on(t.projectId, t.key).where(notArchived),
    uniqueIndex('environments_server_api_key_unique').on(t.serverApiKey),
    uniqueIndex('environments_js_api_key_unique').on(t.jsApiKey),
    index('environments_project_idx').on(t.projectId, t.createdAt),
    index('environments_organisation_idx').on(t.organisationId),
  ],
);

export type ProjectRow = typeof projects.$inferSelect;
export type NewProjectRow = typeof projects.$inferInsert;
export type EnvironmentRow = typeof environments.$inferSelect;
export type NewEnvironmentRow = typeof environments.$inferInsert;
