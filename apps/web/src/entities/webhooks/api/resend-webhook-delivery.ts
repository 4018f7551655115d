import { useMutation, useQueryClient } from '@tanstack/react-query';
import { webhookDeliverySchema, type WebhookDelivery } from '@vexil/core';
import { apiClient } from '../../../lib/api-client';
import { webhookKeys, webhooksPath } from './query-keys';

export type ResendWebhookDeliveryVariables = {
  projectKey: string;
  /** The webhook whose log lists the delivery, refreshed once it is queued. */
  webhookId: string;
  deliveryId: string;
};

/**
 * POST /api/v1/projects/{projectKey}/webhooks/deliveries/{deliveryId}/resend → 202: queues the same event
 * again (same body and `webhook-id`, so the receiver can tell a repeat) as a new delivery, retried like
 * any other, and answers it, pending. The caller says how it went.
 */
export function resendWebhookDelivery({
  projectKey,
  deliveryId,
}: ResendWebhookDeliveryVariables): Promise<WebhookDelivery> {
  return apiClient.post(
    `${webhooksPath(projectKey)}/deliveries/${encodeURIComponent(deliveryId)}/resend`,
    undefined,
    { schema: webhookDeliverySchema, notifyErrors: false },
  );
}

export function useResendWebhookDelivery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resendWebhookDelivery,
    onSettled: (_delivery, _error, { projectKey }) =>
      void queryClient.invalidateQueries({ queryKey: webhookKeys.project(projectKey) }),
  });
}
