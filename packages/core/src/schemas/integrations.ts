import { z } from 'zod';
import { MAX_LENGTH, idSchema, text } from './common';

/** Integration kinds: the chat service and the issue tracker. */
export const INTEGRATION_TYPES = ['slack', 'jira'] as const;
/** One of {@link INTEGRATION_TYPES}. */
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];

/** OAuth scope requested from the chat service (docs/product.md §9). */
export const CHAT_INTEGRATION_SCOPE = 'incoming-webhook';

const member = z.object({ name: z.string() });

/** An installed chat-service integration posting to one channel. */
export const slackIntegrationSchema = z.object({
  id: idSchema,
  type: z.literal('slack'),
  member,
  configuration: z.object({ incomingWebhook: z.object({ channel: z.string() }) }),
});

/** An installed issue-tracker integration. */
export const jiraIntegrationSchema = z.object({
  id: idSchema,
  type: z.literal('jira'),
  member,
  configuration: z.object({ baseUrl: z.string() }),
});

/** An installed integration; `member` is who installed it. */
export const integrationSchema = z.discriminatedUnion('type', [
  slackIntegrationSchema,
  jiraIntegrationSchema,
]);
/** Type of {@link integrationSchema}. */
export type Integration = z.infer<typeof integrationSchema>;

/** Body of POST /api/v1/integrations/jira/connect. */
export const jiraConnectInput = z.object({
  token: text({ max: MAX_LENGTH.token, required: 'Token is required' }),
});
/** Type of {@link jiraConnectInput}. */
export type JiraConnectInput = z.infer<typeof jiraConnectInput>;

/** The changes a chat integration or an outgoing webhook can be told of. */
export const INTEGRATION_EVENT_KINDS = [
  'feature.toggled',
  'feature.targeting',
  'feature.created',
  'feature.deleted',
  'experiment.started',
  'experiment.finished',
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
