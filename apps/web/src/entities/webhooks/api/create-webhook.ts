import { useMutation, useQueryClient } from '@tanstack/react-query';
import { webhookSchema, type Webhook, type WebhookInput } from '@vexil/core';
import { apiClient } from '../../../lib/api-client';
import { webhookKeys, webhooksPath } from './query-keys';

export type CreateWebhookVariables = { projectKey: string; input: WebhookInput };

/**
 * POST /api/v1/projects/{projectKey}/webhooks → 201 with the webhook and its signing secret: the only answer
 * that carries it (besides a rotation). The form shows failures, so no generic toasts.
 */
export function createWebhook({ projectKey, input }: CreateWebhookVariables): Promise<Webhook> {
  return apiClient.post(webhooksPath(projectKey), input, { schema: webhookSchema, notifyErrors: false });
}

export function useCreateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createWebhook,
    onSuccess: (_webhook, { projectKey }) =>
      void queryClient.invalidateQueries({ queryKey: webhookKeys.list(projectKey) }),
  });
}
