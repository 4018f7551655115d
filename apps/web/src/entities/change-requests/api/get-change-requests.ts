import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { changeRequestPageSchema, type ChangeRequestPage } from '@vexil/core';
import { changeRequestsApi } from './change-requests-cache';
import { changeRequestKeys, type ChangeRequestListParams } from './query-keys';

/**
 * GET /api/v1/projects/{projectKey}/change-requests?state=&author=me&reviewer=me&environmentKey=&page=:
 * a page of 20 requests of the project, newest activity first. The page shows a failure in place, with
 * Retry, so no generic toasts.
 */
export function getChangeRequests(
  { projectKey, state, author, reviewer, environmentKey, page }: ChangeRequestListParams,
  signal?: AbortSignal,
): Promise<ChangeRequestPage> {
  return apiClient.get(changeRequestsApi(projectKey), {
    schema: changeRequestPageSchema,
    query: { state, author, reviewer, environmentKey, page },
    signal,
    notifyErrors: false,
  });
}

export const changeRequestsQueryOptions = (params: ChangeRequestListParams) =>
  queryOptions({
    queryKey: changeRequestKeys.list(params),
    queryFn: ({ signal }) => getChangeRequests(params, signal),
  });

/** A page of the list; the previous page stays on screen while another filter or page loads. */
export function useChangeRequests(params: ChangeRequestListParams) {
  return useQuery({ ...changeRequestsQueryOptions(params), placeholderData: keepPreviousData });
}
