import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { webhookDeliverySchema, type WebhookDelivery } from '@vexil/core';
import { apiClient } from '../../../lib/api-client';
import { webhookKeys, webhooksPath } from './query-keys';

const deliveryListSchema = z.array(webhookDeliverySchema);

/** How often the log asks again while a delivery is still pending (waiting for its next attempt). */
export const PENDING_REFRESH_MS = 3000;

/**
 * GET /api/v1/projects/{projectKey}/webhooks/{id}/deliveries: the webhook's recent deliveries, newest first.
 * The delivery log shows a failed load in place, with Retry.
 */
export function getWebhookDeliveries(
  projectKey: string,
  webhookId: string,
  signal?: AbortSignal,
): Promise<WebhookDelivery[]> {
  return apiClient.get(`${webhooksPath(projectKey, webhookId)}/deliveries`, {
    schema: deliveryListSchema,
    notifyErrors: false,
    signal,
  });
}

export const webhookDeliveriesQueryOptions = (projectKey: string, webhookId: string) =>
  queryOptions({
    queryKey: webhookKeys.deliveries(projectKey, webhookId),
    queryFn: ({ signal }) => getWebhookDeliveries(projectKey, webhookId, signal),
    // While a delivery waits for another attempt, the log follows it by itself.
    refetchInterval: (query) =>
      query.state.data?.some((delivery) => delivery.status === 'pending') ? PENDING_REFRESH_MS : false,
  });

export function useWebhookDeliveries(projectKey: string, webhookId: string) {
  return useQuery(webhookDeliveriesQueryOptions(projectKey, webhookId));
}
