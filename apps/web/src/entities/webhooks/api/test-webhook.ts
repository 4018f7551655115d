import { useMutation, useQueryClient } from '@tanstack/react-query';
import { webhookDeliverySchema, type WebhookDelivery } from '@vexil/core';
import { apiClient } from '../../../lib/api-client';
import { webhookKeys, webhooksPath } from './query-keys';

export type TestWebhookVariables = { projectKey: string; webhookId: string };

/**
 * POST /api/v1/projects/{projectKey}/webhooks/{id}/test: sends a `webhook.test` event at once and answers
 * its delivery (status, response code, duration, error), which the log then lists too. A receiver that
 * fails is a failed delivery, not a failed call. The caller says how it went.
 */
export function testWebhook({ projectKey, webhookId }: TestWebhookVariables): Promise<WebhookDelivery> {
  return apiClient.post(`${webhooksPath(projectKey, webhookId)}/test`, undefined, {
    schema: webhookDeliverySchema,
    notifyErrors: false,
  });
}

export function useTestWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: testWebhook,
    onSettled: (_delivery, _error, { projectKey }) =>
      void queryClient.invalidateQueries({ queryKey: webhookKeys.project(projectKey) }),
  });
}
