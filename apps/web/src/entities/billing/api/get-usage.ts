import { queryOptions, useQuery } from '@tanstack/react-query';
import { usageSchema, type Usage } from '@vexil/core';
import { apiClient } from '../../../lib/api-client';
import { billingKeys } from './query-keys';

/**
 * GET /api/v1/billing/usage: what the organisation uses of its plan (seats, projects, environments,
 * features, application users, impressions). Failures are said in place, or ignored by the limit checks.
 */
export function getUsage(signal?: AbortSignal): Promise<Usage> {
  return apiClient.get('/api/v1/billing/usage', { schema: usageSchema, notifyErrors: false, signal });
}

export const usageQueryOptions = queryOptions({
  queryKey: billingKeys.usage(),
  queryFn: ({ signal }) => getUsage(signal),
});

export function useUsage(options: { enabled?: boolean } = {}) {
  return useQuery({ ...usageQueryOptions, enabled: options.enabled ?? true });
}
