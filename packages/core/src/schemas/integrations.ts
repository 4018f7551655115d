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
