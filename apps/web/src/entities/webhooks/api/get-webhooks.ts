import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { webhookSchema, type Webhook } from '@vexil/core';
import { apiClient } from '../../../lib/api-client';
import { webhookKeys, webhooksPath } from './query-keys';

const webhookListSchema = z.array(webhookSchema);

/**
 * GET /api/v1/projects/{projectKey}/webhooks (organisation admins): the project's outgoing webhooks, without
 * their secrets, each with its last delivery. The Webhooks section shows a failed load in place, with Retry.
 */
export function getWebhooks(projectKey: string, signal?: AbortSignal): Promise<Webhook[]> {
  return apiClient.get(webhooksPath(projectKey), { schema: webhookListSchema, notifyErrors: false, signal });
}

export const webhooksQueryOptions = (projectKey: string) =>
  queryOptions({
    queryKey: webhookKeys.list(projectKey),
    queryFn: ({ signal }) => getWebhooks(projectKey, signal),
  });

export function useWebhooks(projectKey: string) {
  return useQuery(webhooksQueryOptions(projectKey));
}
