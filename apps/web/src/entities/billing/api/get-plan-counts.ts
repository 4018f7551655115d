import { useQuery } from '@tanstack/react-query';
import { planCountsSchema, type PlanCounts } from '@vexil/core';
import { apiClient } from '../../../lib/api-client';
import { billingKeys } from './query-keys';

/**
 * GET /api/v1/billing/limits: the seats, projects, environments and features the plan's creation
 * limits compare with, which every member may read. Failures are ignored by the limit checks (the
 * server refuses anyway).
 */
export function getPlanCounts(signal?: AbortSignal): Promise<PlanCounts> {
  return apiClient.get('/api/v1/billing/limits', { schema: planCountsSchema, notifyErrors: false, signal });
}

/** Asked afresh whenever a page that needs it opens: a count changes with every creation. */
export function usePlanCounts(options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: billingKeys.counts(),
    queryFn: ({ signal }) => getPlanCounts(signal),
    enabled: options.enabled ?? true,
    staleTime: 0,
  });
}
