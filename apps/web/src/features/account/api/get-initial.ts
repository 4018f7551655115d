import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient, isApiError } from '../../../lib/api-client';
import { initialQueryKey } from '../../../lib/session';
import { initialPayloadSchema, type InitialPayload } from '@vexil/core';

export { initialQueryKey };

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
  queryKey: initialQueryKey,
  queryFn: ({ signal }) => getInitial(signal),
  // Loaded once per sign-in; screens that change it invalidate it.
  staleTime: Number.POSITIVE_INFINITY,
  retry: (failureCount, error) =>
    !(isApiError(error) && error.status < 500 && error.status > 0) && failureCount < 2,
});

export function useInitial() {
  return useQuery(initialQueryOptions);
}
