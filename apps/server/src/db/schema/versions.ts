import { index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { VERSION_SOURCES, VERSIONED_RESOURCES } from '@vexil/core';
import { createdAt, id } from './columns.ts';
import { features } from './features.ts';
import { environments } from './projects.ts';
import { segments } from './targeting.ts';
import { organisationId } from './tenant.ts';

/**
 * Immutable versions of what people change (docs/adr/0022-versions.md): a feature's settings, a feature
 * control, a segment, an environment's settings. Numbered 1, 2, … per resource; never updated, deleted
 * only with what they are versions of.
 */
export const versions = pgTable(
  'versions',
  {
    id: id(),
    organisationId: organisationId(),
    resourceType: text('resource_type', { enum: VERSIONED_RESOURCES }).notNull(),
    resourceId: uuid('resource_id').notNull(),
    /** The feature a feature's or a control's version belongs to (its history lists both). */
    featureId: uuid('feature_id').references(() => features.id, { onDelete: 'cascade' }),
    /** The environment of a control's, a segment's or an environment's version. */
    environmentId: uuid('environment_id').references(() => environments.id, { onDelete: 'cascade' }),
    /** The segment of a segment's version: a deleted segment's history goes with it. */
    segmentId: uuid('segment_id').references(() => segments.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    parentNumber: integer('parent_number'),
    /** The member or token owner who made the change; kept by name when they are removed. */
    authorId: uuid('author_id'),
    authorName: text('author_name'),
    source: text('source', { enum: VERSION_SOURCES }).notNull(),
    comment: text('comment'),
    /** For a restore, the version whose snapshot it brought forward. */
    restoredFrom: integer('restored_from'),
    /** The applied change request this version came from (source `change-request`). */
    changeRequestId: uuid('change_request_id'),
    /** What changed from the parent, in plain sentences, as worded when the change was made. */
    changes: jsonb('changes').$type<string[]>().notNull(),
    snapshot: jsonb('snapshot').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    // One number per resource; also the index of its history, newest first.
    uniqueIndex('versions_resource_number_unique').on(t.resourceType, t.resourceId, t.number),
    index('versions_feature_created_idx').on(t.featureId, t.createdAt),
    index('versions_segment_idx').on(t.segmentId),
  ],
);
