import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.ts';
import { users } from './identity.ts';
import { organisationId } from './tenant.ts';
import type { AuditAction } from '@vexil/core';

export type { AuditAction };

/**
 * The audit log (docs/product.md §2: Admin > Audit, the feature Audit tab). Append-only. Resources are named by
 * id and key, not by foreign key: an entry outlives what it describes.
 */
export const auditItems = pgTable(
  'audit_items',
  {
    id: id(),
    organisationId: organisationId(),
    /** Null for the SDK API, the system, or a removed user (the title names the actor). */
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    title: text('title').notNull(),
    /** Markdown. */
    description: text('description').notNull().default(''),
    action: text('action').$type<AuditAction>().notNull(),
    /** e.g. 'project', 'environment', 'feature', 'feature_control', 'user', 'token'. */
    resourceType: text('resource_type').notNull(),
    resourceId: uuid('resource_id'),
    projectKey: text('project_key'),
    environmentKey: text('environment_key'),
    featureKey: text('feature_key'),
    /** Optional machine-readable detail (e.g. changed fields before/after). */
    data: jsonb('data').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [
    // Ascending on purpose: a backward scan serves `order by created_at desc, id desc` (nulls
    // first, Postgres' default for desc), which a `desc nulls last` index would not.
    index('audit_items_organisation_created_idx').on(t.organisationId, t.createdAt, t.id),
    index('audit_items_resource_created_idx')
      .on(t.organisationId, t.resourceId, t.createdAt)
      .where(sql`resource_id is not null`),
    index('audit_items_project_created_idx')
      .on(t.organisationId, t.projectKey, t.createdAt)
      .where(sql`project_key is not null`),
    index('audit_items_feature_created_idx')
      .on(t.organisationId, t.projectKey, t.featureKey, t.createdAt)
      .where(sql`feature_key is not null`),
    index('audit_items_actor_idx').on(t.actorId),
  ],
);

export type AuditItemRow = typeof auditItems.$inferSelect;
export type NewAuditItemRow = typeof auditItems.$inferInsert;
