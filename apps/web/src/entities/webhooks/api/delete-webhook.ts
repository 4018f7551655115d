import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient, isApiError } from '../../../lib/api-client';
import { webhookKeys, webhooksPath } from './query-keys';

export type DeleteWebhookVariables = { projectKey: string; webhookId: string };

/**
 * DELETE /api/v1/projects/{projectKey}/webhooks/{id} → 204: no more deliveries, its log goes with it. The
 * caller says how it went.
 */
export async function deleteWebhook({ projectKey, webhookId }: DeleteWebhookVariables): Promise<void> {
  await apiClient.delete(webhooksPath(projectKey, webhookId), { notifyErrors: false });
}

export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  const changed = (projectKey: string) =>
    queryClient.invalidateQueries({ queryKey: webhookKeys.list(projectKey) });
  return useMutation({
    mutationFn: deleteWebhook,
    onSuccess: (_nothing, { projectKey }) => void changed(projectKey),
    // A webhook already deleted elsewhere (404) leaves the list too.
    onError: (error, { projectKey }) => {
      if (isApiError(error) && error.status === 404) void changed(projectKey);
    },
  });
}
