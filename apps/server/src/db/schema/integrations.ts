import { index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.ts';
import { users } from './identity.ts';
import { organisationId } from './tenant.ts';

/** The chat service (incoming-webhook scope) and the issue tracker (docs/product.md §3 Integration). */
export type IntegrationType = 'slack' | 'jira';

/** What the dashboard may show: never a secret. */
export interface SlackConfiguration {
  incomingWebhook: { channel: string; channelId?: string; configurationUrl?: string };
  teamId?: string;
  teamName?: string;
}
export interface JiraConfiguration {
  baseUrl: string;
}
export type IntegrationConfiguration = SlackConfiguration | JiraConfiguration;

/** Credentials, kept apart so that a list query can't leak them by selecting `configuration`. */
export interface IntegrationSecrets {
  /** The incoming-webhook URL is itself a bearer credential. */
  webhookUrl?: string;
  accessToken?: string;
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
  ],
);

export type IntegrationRow = typeof integrations.$inferSelect;
export type NewIntegrationRow = typeof integrations.$inferInsert;
