import { z } from 'zod';
import { MAX_LENGTH, dateTimeSchema, email, idSchema, text } from './common';

/** Integration kinds: the chat service and the issue tracker. */
export const INTEGRATION_TYPES = ['slack', 'jira'] as const;
/** One of {@link INTEGRATION_TYPES}. */
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];

/** OAuth scope requested from the chat service (docs/product.md §9). */
export const CHAT_INTEGRATION_SCOPE = 'incoming-webhook';

/** The refusal of every integration and outgoing-webhook call to others than organisation admins. */
export const INTEGRATIONS_ADMINS_ONLY = 'Only organisation admins may manage integrations.';

/** The changes a chat integration or an outgoing webhook can be told of. */
export const INTEGRATION_EVENT_KINDS = [
  'feature.toggled',
  'feature.targeting',
  'feature.created',
  'feature.deleted',
  'experiment.started',
  'experiment.finished',
  'change-request.submitted',
  'change-request.approved',
  'change-request.changes-requested',
  'change-request.rejected',
  'change-request.applied',
  'change-request.suspended',
  'change-request.cancelled',
] as const;
/** One of {@link INTEGRATION_EVENT_KINDS}. */
export type IntegrationEventKind = (typeof INTEGRATION_EVENT_KINDS)[number];

/**
 * Which changes an integration passes on: empty lists mean all projects, all environments (of those
 * projects) and all kinds.
 */
export const integrationFiltersSchema = z.object({
  projectKeys: z.array(z.string().max(MAX_LENGTH.name)).max(200).default([]),
  environmentKeys: z.array(z.string().max(MAX_LENGTH.name)).max(200).default([]),
  events: z.array(z.enum(INTEGRATION_EVENT_KINDS)).default([]),
});
/** Type of {@link integrationFiltersSchema}. */
export type IntegrationFilters = z.infer<typeof integrationFiltersSchema>;

/** Filters as the server answers them (every list present). */
const integrationFiltersOutput = z.object({
  projectKeys: z.array(z.string()),
  environmentKeys: z.array(z.string()),
  events: z.array(z.enum(INTEGRATION_EVENT_KINDS)),
});

const member = z.object({ name: z.string() });

/** An installed chat-service integration posting to one channel. */
export const slackIntegrationSchema = z.object({
  id: idSchema,
  type: z.literal('slack'),
  member,
  configuration: z.object({
    incomingWebhook: z.object({ channel: z.string() }),
    /** The Slack workspace's name, when Slack gave it. */
    teamName: z.string().optional(),
  }),
  /** Which changes are posted (PUT /api/v1/integrations/{id}/filters); empty lists mean all. */
  filters: integrationFiltersOutput,
  createdDate: dateTimeSchema,
});

/** An installed issue-tracker integration. */
export const jiraIntegrationSchema = z.object({
  id: idSchema,
  type: z.literal('jira'),
  member,
  configuration: z.object({ baseUrl: z.string() }),
  createdDate: dateTimeSchema,
});

/** An installed integration; `member` is who installed it. */
export const integrationSchema = z.discriminatedUnion('type', [
  slackIntegrationSchema,
  jiraIntegrationSchema,
]);
/** Type of {@link integrationSchema}. */
export type Integration = z.infer<typeof integrationSchema>;

/**
 * GET /api/v1/integrations/available: what the Integrations screen may offer. Slack can be added only
 * when the server has a Slack app (SLACK_CLIENT_ID, SLACK_CLIENT_SECRET); Jira only with the
 * jira-integration flag, and once per organisation.
 */
export const integrationsAvailableSchema = z.object({
  slack: z.object({ configured: z.boolean() }),
  jira: z.object({ enabled: z.boolean(), connectedId: idSchema.nullable() }),
});
/** Type of {@link integrationsAvailableSchema}. */
export type IntegrationsAvailable = z.infer<typeof integrationsAvailableSchema>;

/** GET /api/v1/integrations/slack/install: Slack's authorisation page, with a one-time state (10 minutes). */
export const slackInstallSchema = z.object({ url: z.string() });
/** Type of {@link slackInstallSchema}. */
export type SlackInstall = z.infer<typeof slackInstallSchema>;

/**
 * Why adding Slack failed: the callback sends the browser to `/admin/integrations?error={reason}`
 * (success: `?installed=slack`).
 */
export const SLACK_INSTALL_ERRORS = {
  state: 'The link to add Slack has expired or was already used. Add Slack again.',
  denied: 'Slack was not added: the authorisation was cancelled.',
  failed: 'Slack could not be added: Slack did not accept the authorisation. Try again.',
  forbidden: INTEGRATIONS_ADMINS_ONLY,
  'not-configured': 'Slack is not configured on this server.',
} as const;
/** One of the keys of {@link SLACK_INSTALL_ERRORS}. */
export type SlackInstallError = keyof typeof SLACK_INSTALL_ERRORS;

/**
 * GET /api/v1/integrations/jira/connect-token: a one-time token (30 minutes) for the connect page
 * `/admin/integrations/jira/connect?token=…`, which sends it back with the connection's details.
 */
export const jiraConnectTokenSchema = z.object({ token: z.string(), expiresDate: dateTimeSchema });
/** Type of {@link jiraConnectTokenSchema}. */
export type JiraConnectToken = z.infer<typeof jiraConnectTokenSchema>;

const jiraBaseUrl = text({ max: MAX_LENGTH.url, required: 'Jira URL is required' }).pipe(
  z.url({ protocol: /^https?$/, error: 'Must be a valid http(s) URL.' }),
);
const jiraEmail = email({ required: 'E-mail is required', invalid: 'Email must be valid' });
const jiraApiToken = text({ max: MAX_LENGTH.token, required: 'API token is required' });

/**
 * Body of POST /api/v1/integrations/jira/connect: the one-time token, the Jira site's address (such as
 * https://acme.atlassian.net) and the account (e-mail and API token) Vexil reads issues and comments
 * as. The server checks them against Jira before saving.
 */
export const jiraConnectInput = z.object({
  token: text({ max: MAX_LENGTH.token, required: 'Token is required' }),
  baseUrl: jiraBaseUrl,
  email: jiraEmail,
  apiToken: jiraApiToken,
});
/** Type of {@link jiraConnectInput}. */
export type JiraConnectInput = z.infer<typeof jiraConnectInput>;

/** Body of PUT /api/v1/integrations/jira/{id}; `apiToken` omitted keeps the stored one. */
export const jiraConnectionInput = z.object({
  baseUrl: jiraBaseUrl,
  email: jiraEmail,
  apiToken: jiraApiToken.optional(),
});
/** Type of {@link jiraConnectionInput}. */
export type JiraConnectionInput = z.infer<typeof jiraConnectionInput>;

/** A Jira connection as organisation admins see it (its API token never). */
export const jiraConnectionSchema = z.object({
  id: idSchema,
  baseUrl: z.string(),
  email: z.string(),
  hasApiToken: z.boolean(),
  member,
  createdDate: dateTimeSchema,
  lastModifiedDate: dateTimeSchema,
});
/** Type of {@link jiraConnectionSchema}. */
export type JiraConnection = z.infer<typeof jiraConnectionSchema>;

/** Most outgoing webhooks a project may have. */
export const MAX_WEBHOOKS_PER_PROJECT = 20;

/**
 * An outgoing webhook of a project (Standard Webhooks: `webhook-id`, `webhook-timestamp` and
 * `webhook-signature` headers, HMAC-SHA256 with the secret). The secret (`whsec_…`) is in the answer
 * of the call that creates it (or rotates it) only.
 */
export const webhookSchema = z.object({
  id: idSchema,
  projectKey: z.string(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.enum(INTEGRATION_EVENT_KINDS)),
  environmentKeys: z.array(z.string()),
  enabled: z.boolean(),
  /** Only when just created or rotated. */
  secret: z.string().optional(),
  createdDate: z.string(),
  lastDelivery: z.object({ status: z.enum(['pending', 'succeeded', 'failed']), at: z.string() }).nullable(),
});
/** Type of {@link webhookSchema}. */
export type Webhook = z.infer<typeof webhookSchema>;

/** Body of POST (create) and PUT /api/v1/projects/{projectKey}/webhooks[/{id}]. */
export const webhookInput = z.object({
  url: text({ max: MAX_LENGTH.url, required: 'URL is required' }).pipe(
    z.url({ protocol: /^https?$/, error: 'Must be a valid http(s) URL.' }),
  ),
  description: z.string().max(MAX_LENGTH.description).default(''),
  events: z.array(z.enum(INTEGRATION_EVENT_KINDS)).min(1, 'Choose at least one event.'),
  environmentKeys: z.array(z.string().max(MAX_LENGTH.name)).max(200).default([]),
  enabled: z.boolean().default(true),
});
/** Type of {@link webhookInput} after parsing. */
export type WebhookInput = z.infer<typeof webhookInput>;

/** One attempt to deliver one event to a webhook, as the delivery log shows it. */
export const webhookDeliverySchema = z.object({
  id: idSchema,
  /** The `webhook-id` header: the same for every attempt and resend of one event. */
  messageId: z.string(),
  eventType: z.enum([...INTEGRATION_EVENT_KINDS, 'webhook.test']),
  status: z.enum(['pending', 'succeeded', 'failed']),
  attempts: z.number().int().min(0),
  responseCode: z.number().int().nullable(),
  durationMs: z.number().int().min(0).nullable(),
  /** Why the last attempt failed (timeout, refused address, HTTP status), in words. */
  error: z.string().nullable(),
  createdDate: z.string(),
  nextAttemptDate: z.string().nullable(),
});
/** Type of {@link webhookDeliverySchema}. */
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;
