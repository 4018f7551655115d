import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { changeRequestSchema, type ChangeRequest } from '@vexil/core';
import { changeRequestsApi } from './change-requests-cache';
import { changeRequestKeys } from './query-keys';

/**
 * GET /api/v1/projects/{projectKey}/change-requests/{id}: the request with its changes (each with what
 * is live, what it proposes and what applying would write), its timeline and, for every button,
 * whether the caller may press it now. An unknown one is 404; the page shows failures in place.
 */
export function getChangeRequest(
  projectKey: string,
  id: string,
  signal?: AbortSignal,
): Promise<ChangeRequest> {
  return apiClient.get(changeRequestsApi(projectKey, id), {
    schema: changeRequestSchema,
    signal,
    notifyErrors: false,
  });
}

export const changeRequestQueryOptions = (projectKey: string, id: string) =>
  queryOptions({
    queryKey: changeRequestKeys.detail(projectKey, id),
    queryFn: ({ signal }) => getChangeRequest(projectKey, id, signal),
  });

export function useChangeRequest(projectKey: string, id: string) {
  return useQuery(changeRequestQueryOptions(projectKey, id));
}
