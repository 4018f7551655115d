import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, emptyTextArray, id, timestamptz, updatedAt } from './columns.ts';
import { users } from './identity.ts';
import { projects } from './projects.ts';
import { organisationId } from './tenant.ts';

/** The chat service (incoming-webhook scope) and the issue tracker (docs/product.md §3 Integration). */
export type IntegrationType = 'slack' | 'jira';

/** Which changes a chat integration passes on; empty lists mean all (core's integrationFiltersSchema). */
export interface StoredIntegrationFilters {
  projectKeys: string[];
  environmentKeys: string[];
  events: string[];
}

/** What the dashboard may show: never a secret. */
export interface SlackConfiguration {
  incomingWebhook: { channel: string; channelId?: string; configurationUrl?: string };
  teamId?: string;
  teamName?: string;
  filters?: StoredIntegrationFilters;
}
export interface JiraConfiguration {
  baseUrl: string;
  /** The Jira account whose API token is stored (basic authentication). */
  email?: string;
}
export type IntegrationConfiguration = SlackConfiguration | JiraConfiguration;

/**
 * Credentials, kept apart so that a list query can't leak them by selecting `configuration`. Every
 * value is encrypted with the secret box (lib/secret-box.ts), never stored in clear.
 */
export interface IntegrationSecrets {
  /** The incoming-webhook URL is itself a bearer credential. */
  webhookUrl?: string;
  accessToken?: string;
  /** The issue tracker's API token (with `configuration.email`). */
  apiToken?: string;
  /** Issue-tracker app installation (shared secret used to sign and verify its JWTs). */
  sharedSecret?: string;
}

export const integrations = pgTable(
  'integrations',
  {
    id: id(),
    organisationId: organisationId(),
    type: text('type').$type<IntegrationType>().notNull(),
    /** The member who installed it (docs/product.md §3: member.name). */
    memberId: uuid('member_id').references(() => users.id, { onDelete: 'set null' }),
    configuration: jsonb('configuration').$type<IntegrationConfiguration>().notNull(),
    secrets: jsonb('secrets').$type<IntegrationSecrets>().notNull().default({}),
    /** Provider-side id of the installation (chat team id, issue-tracker client key) for callbacks. */
    externalId: text('external_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('integrations_organisation_idx').on(t.organisationId, t.type),
    index('integrations_external_idx').on(t.type, t.externalId),
    index('integrations_member_idx').on(t.memberId),
    // One issue-tracker connection per organisation: its issue keys resolve against it.
    uniqueIndex('integrations_one_jira_unique')
      .on(t.organisationId)
      .where(sql`type = 'jira'`),
  ],
);

/**
 * A one-time token an organisation admin was given to add an integration: the state of a chat-service
 * authorisation under way, or an issue-tracker connect token. Only its SHA-256 is stored; it is deleted
 * when used (one DELETE … RETURNING), so it works once, and is worthless after `expires_at`.
 */
export const integrationStates = pgTable(
  'integration_states',
  {
    id: id(),
    organisationId: organisationId(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'slack-install' | 'jira-connect'>().notNull(),
    nonceHash: text('nonce_hash').notNull(),
    /** Where the browser goes back to once done (the dashboard's origin the admin started from). */
    returnTo: text('return_to'),
    createdAt: createdAt(),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (t) => [
    uniqueIndex('integration_states_nonce_unique').on(t.nonceHash),
    index('integration_states_expires_idx').on(t.expiresAt),
  ],
);

/**
 * An outgoing webhook of a project (Standard Webhooks). The signing secret (`whsec_…`) is encrypted
 * with the secret box; it is shown once, when created or rotated.
 */
export const webhooks = pgTable(
  'webhooks',
  {
    id: id(),
    organisationId: organisationId(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    /** Event kinds it is sent (core's INTEGRATION_EVENT_KINDS). */
    events: text('events').array().notNull().default(emptyTextArray),
    /** Environments whose changes it is sent; empty: all. */
    environmentKeys: text('environment_keys').array().notNull().default(emptyTextArray),
    enabled: boolean('enabled').notNull().default(true),
    secretEncrypted: text('secret_encrypted').notNull(),
    createdById: uuid('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('webhooks_project_idx').on(t.organisationId, t.projectId)],
);

/**
 * One event to deliver to one webhook, with the outcome of its last attempt. Pending rows are taken by
 * the delivery worker when `next_attempt_at` has come (FOR UPDATE SKIP LOCKED, so several instances
 * share them); a failed attempt is tried again later until 24 hours after `created_at`.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: id(),
    organisationId: organisationId(),
    webhookId: uuid('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    /** The `webhook-id` header: the same for every attempt and resend of one event. */
    messageId: text('message_id').notNull(),
    eventType: text('event_type').notNull(),
    /** The JSON body exactly as signed and sent. */
    payload: text('payload').notNull(),
    status: text('status').$type<'pending' | 'succeeded' | 'failed'>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    responseCode: integer('response_code'),
    durationMs: integer('duration_ms'),
    error: text('error'),
    nextAttemptAt: timestamptz('next_attempt_at'),
    lastAttemptAt: timestamptz('last_attempt_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('webhook_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`status = 'pending'`),
    index('webhook_deliveries_webhook_idx').on(t.webhookId, t.createdAt),
    index('webhook_deliveries_created_idx').on(t.createdAt),
  ],
);

export type IntegrationRow = typeof integrations.$inferSelect;
export type NewIntegrationRow = typeof integrations.$inferInsert;
export type WebhookRow = typeof webhooks.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
