import type { IntegrationEventKind } from '@vexil/core';
import type {
  IntegrationConfiguration,
  IntegrationSecrets,
  IntegrationType,
  JiraConfiguration,
  SlackConfiguration,
} from '../../db/schema/index';

/** The stored shapes the services read and write, named here so that services need not import the schema. */
export type {
  IntegrationSecrets,
  JiraConfiguration,
  SlackConfiguration,
  StoredIntegrationFilters,
} from '../../db/schema/index';

/** An installed integration as stored; `secrets` still encrypted. */
export type IntegrationRecord = {
  id: string;
  organisationId: string;
  type: IntegrationType;
  memberId: string | null;
  configuration: IntegrationConfiguration;
  secrets: IntegrationSecrets;
  createdAt: Date;
  updatedAt: Date;
};

export type SlackIntegrationRecord = IntegrationRecord & { type: 'slack'; configuration: SlackConfiguration };
export type JiraIntegrationRecord = IntegrationRecord & { type: 'jira'; configuration: JiraConfiguration };

/** A one-time state or token as the callback or connect call finds it. */
export type IntegrationStateRecord = {
  organisationId: string;
  userId: string;
  returnTo: string | null;
  expiresAt: Date;
};

/** A member as an install or connect checks them: still there, and with which authorities. */
export type IntegrationMember = { email: string; authorities: string[] };

/** The names a change's keys stand for, read when it is passed on. */
export type ChangeSubject = {
  organisationDomain: string;
  project: { id: string; key: string; name: string };
  environment: { key: string; name: string } | null;
  feature: { key: string; name: string } | null;
  /** The project's first environment, for links to a feature that names none. */
  firstEnvironmentKey: string | null;
};

/**
 * A change as the chat service and outgoing webhooks are told of it: what happened, who did it, where,
 * and the dashboard's page for it.
 */
export type IntegrationEvent = {
  kind: IntegrationEventKind;
  organisationId: string;
  organisationDomain: string;
  project: { id: string; key: string; name: string };
  environment: { key: string; name: string } | null;
  feature: { key: string; name: string } | null;
  experiment: { name: string } | null;
  /** For `change-request.*`: which request. */
  changeRequest: { id: string; title: string } | null;
  /** For `feature.toggled`: the new state. */
  enabled: boolean | null;
  /** The member, by e-mail; null for an SDK. */
  actor: { id: string; email: string } | null;
  /** When it happened (ISO 8601). */
  at: string;
  url: string;
};

/** An outgoing webhook as stored; the secret still encrypted. */
export type WebhookRecord = {
  id: string;
  organisationId: string;
  projectId: string;
  url: string;
  description: string;
  events: string[];
  environmentKeys: string[];
  enabled: boolean;
  secretEncrypted: string;
  createdAt: Date;
  updatedAt: Date;
};

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** One event for one webhook, with its last attempt's outcome. */
export type DeliveryRecord = {
  id: string;
  organisationId: string;
  webhookId: string;
  messageId: string;
  eventType: string;
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  responseCode: number | null;
  durationMs: number | null;
  error: string | null;
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  createdAt: Date;
};

/** The outcome of one attempt, as recorded. */
export type AttemptRecord = {
  status: DeliveryStatus;
  attempts: number;
  responseCode: number | null;
  durationMs: number | null;
  error: string | null;
  nextAttemptAt: Date | null;
  lastAttemptAt: Date;
};
