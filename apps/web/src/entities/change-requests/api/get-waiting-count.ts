import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { waitingCountSchema, type WaitingCount } from '@vexil/core';
import { changeRequestKeys } from './query-keys';

/** How often the navigation asks again how many requests wait for the user. */
export const WAITING_REFETCH_MS = 60_000;

/**
 * GET /api/v1/change-requests/waiting → {count}: requests in review, across the organisation, that the
 * caller may approve and has not approved in their current round. A badge only: no toasts.
 */
export function getWaitingCount(signal?: AbortSignal): Promise<WaitingCount> {
  return apiClient.get('/api/v1/change-requests/waiting', {
    schema: waitingCountSchema,
    signal,
    notifyErrors: false,
  });
}

export const waitingCountQueryOptions = () =>
  queryOptions({
    queryKey: changeRequestKeys.waiting(),
    queryFn: ({ signal }) => getWaitingCount(signal),
  });

/**
 * The count, asked again every minute and whenever the window comes back into focus; `enabled` false
 * waits (nowhere to lead to yet).
 */
export function useWaitingCount(enabled = true) {
  return useQuery({
    ...waitingCountQueryOptions(),
    enabled,
    refetchInterval: WAITING_REFETCH_MS,
    refetchOnWindowFocus: true,
    staleTime: 0,
  });
}
