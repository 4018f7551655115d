import { boolean, check, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import {
  CHANGE_KINDS,
  CHANGE_REQUEST_STATES,
  REVIEW_DECISIONS,
  TIMELINE_KINDS,
  VERSIONED_RESOURCES,
} from '@vexil/core';
import { createdAt, id, updatedAt } from './columns.ts';
import { features } from './features.ts';
import { environments, projects } from './projects.ts';
import { organisationId } from './tenant.ts';

/*
 * Change requests (docs/adr/0024-change-requests.md): an environment's approval settings, and the
 * requests that change a protected environment, with their changes and their timeline (reviews,
 * comments, moves between states). All four belong to the change-requests module.
 */

/** An environment's approval settings; an environment without a row asks for no change requests. */
export const approvalSettings = pgTable(
  'approval_settings',
  {
    environmentId: uuid('environment_id')
      .primaryKey()
      .references(() => environments.id, { onDelete: 'cascade' }),
    organisationId: organisationId(),
    required: boolean('required').notNull(),
    minApprovals: integer('min_approvals').notNull(),
    allowSelfApproval: boolean('allow_self_approval').notNull(),
    resetApprovalsOnChange: boolean('reset_approvals_on_change').notNull(),
    autoApply: boolean('auto_apply').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('approval_settings_organisation_idx').on(t.organisationId),
    check('approval_settings_min_approvals', sql`${t.minApprovals} between 1 and 5`),
  ],
);

/** A change request: changes to one environment, drafted, reviewed and applied together. */
export const changeRequests = pgTable(
  'change_requests',
  {
    id: id(),
    organisationId: organisationId(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    environmentId: uuid('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    /** The member who drafted it; kept by name once they leave. */
    authorId: uuid('author_id'),
    authorName: text('author_name').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    state: text('state', { enum: CHANGE_REQUEST_STATES }).notNull(),
    /** Edits made while under review: approvals of an earlier round may no longer count. */
    round: integer('round').notNull().default(0),
    /** Why a suspended request stopped. */
    suspendedReason: text('suspended_reason'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('change_requests_project_updated_idx').on(t.organisationId, t.projectId, t.updatedAt),
    index('change_requests_open_idx')
      .on(t.environmentId, t.state)
      .where(sql`${t.state} not in ('applied', 'rejected', 'cancelled')`),
  ],
);

/**
 * One change of a request: the resource, the version of it the change was drafted on, and the state
 * it proposes (a version's snapshot). One change per resource: a later one replaces it.
 */
export const changeRequestChanges = pgTable(
  'change_request_changes',
  {
    id: id(),
    organisationId: organisationId(),
    changeRequestId: uuid('change_request_id')
      .notNull()
      .references(() => changeRequests.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: CHANGE_KINDS }).notNull(),
    resourceType: text('resource_type', { enum: VERSIONED_RESOURCES }).notNull(),
    resourceId: uuid('resource_id').notNull(),
    /** The feature of a control's change: a deleted feature's changes go with it. */
    featureId: uuid('feature_id').references(() => features.id, { onDelete: 'cascade' }),
    baseVersion: integer('base_version'),
    /** A restore: the version it brings forward. */
    restoredFrom: integer('restored_from'),
    comment: text('comment'),
    proposed: jsonb('proposed').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('change_request_changes_resource_unique').on(t.changeRequestId, t.resourceType, t.resourceId),
  ],
);

/** What happened to a request, oldest first: created, changes, submitted, reviews, comments, outcomes. */
export const changeRequestEvents = pgTable(
  'change_request_events',
  {
    id: id(),
    organisationId: organisationId(),
    changeRequestId: uuid('change_request_id')
      .notNull()
      .references(() => changeRequests.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: TIMELINE_KINDS }).notNull(),
    actorId: uuid('actor_id'),
    actorName: text('actor_name'),
    decision: text('decision', { enum: REVIEW_DECISIONS }),
    text: text('text'),
    round: integer('round').notNull(),
    createdAt: createdAt(),
    /** Orders events of one transaction (same `created_at`). */
    sequence: integer('sequence').generatedAlwaysAsIdentity(),
  },
  (t) => [index('change_request_events_request_idx').on(t.changeRequestId, t.sequence)],
);
