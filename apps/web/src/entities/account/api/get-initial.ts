import { useCallback } from 'react';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient, isApiError } from '../../../lib/api-client';
import { initialPayloadSchema, type InitialPayload } from '@vexil/core';
import { accountKeys } from './query-keys';

/**
 * GET /api/v1/initial: the signed-in user, organisation, projects, subscription and UI flags.
 * It is also how the dashboard learns whether there is a session (the cookie is HttpOnly), so its 401
 * is an answer for the caller, not a reason to go to /logout.
 */
export function getInitial(signal?: AbortSignal): Promise<InitialPayload> {
  return apiClient.get('/api/v1/initial', {
    schema: initialPayloadSchema,
    authenticated: false,
    notifyErrors: false,
    signal,
  });
}

export const initialQueryOptions = queryOptions({
  queryKey: accountKeys.initial,
  queryFn: ({ signal }) => getInitial(signal),
  // Loaded once per sign-in; screens that change it invalidate it.
  staleTime: Number.POSITIVE_INFINITY,
  retry: (failureCount, error) =>
    !(isApiError(error) && error.status < 500 && error.status > 0) && failureCount < 2,
});

export function useInitial() {
  return useQuery(initialQueryOptions);
}

/**
 * Reloads the initial payload, for screens that change what it carries (projects and environments
 * in the top navigation and on the home page). The session stays on screen while it reloads.
 */
export function useRefreshSession(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: accountKeys.initial }), [queryClient]);
}
