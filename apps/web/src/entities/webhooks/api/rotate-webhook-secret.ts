import { useMutation, useQueryClient } from '@tanstack/react-query';
import { webhookSchema, type Webhook } from '@vexil/core';
import { apiClient } from '../../../lib/api-client';
import { webhookKeys, webhooksPath } from './query-keys';

export type RotateWebhookSecretVariables = { projectKey: string; webhookId: string };

/**
 * POST /api/v1/projects/{projectKey}/webhooks/{id}/secret → the webhook with its new secret, shown
 * once; deliveries are signed with the new secret from then on. The caller says how it went.
 */
export function rotateWebhookSecret({
  projectKey,
  webhookId,
}: RotateWebhookSecretVariables): Promise<Webhook> {
  return apiClient.post(`${webhooksPath(projectKey, webhookId)}/secret`, undefined, {
    schema: webhookSchema,
    notifyErrors: false,
  });
}

export function useRotateWebhookSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rotateWebhookSecret,
    onSuccess: (_webhook, { projectKey }) =>
      void queryClient.invalidateQueries({ queryKey: webhookKeys.list(projectKey) }),
  });
}
