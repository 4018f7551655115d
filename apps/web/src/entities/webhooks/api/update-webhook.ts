import { useMutation, useQueryClient } from '@tanstack/react-query';
import { webhookSchema, type Webhook, type WebhookInput } from '@vexil/core';
import { apiClient } from '../../../lib/api-client';
import { webhookKeys, webhooksPath } from './query-keys';

export type UpdateWebhookVariables = { projectKey: string; webhookId: string; input: WebhookInput };

/**
 * PUT /api/v1/projects/{projectKey}/webhooks/{id}: replaces the address, description, events, environments and
 * whether it is on; the secret stays. The form shows failures, so no generic toasts.
 */
export function updateWebhook({ projectKey, webhookId, input }: UpdateWebhookVariables): Promise<Webhook> {
  return apiClient.put(webhooksPath(projectKey, webhookId), input, {
    schema: webhookSchema,
    notifyErrors: false,
  });
}

export function useUpdateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateWebhook,
    onSuccess: (_webhook, { projectKey }) =>
      void queryClient.invalidateQueries({ queryKey: webhookKeys.list(projectKey) }),
  });
}
