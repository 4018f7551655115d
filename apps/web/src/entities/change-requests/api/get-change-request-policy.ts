import { queryOptions, useQuery } from '@tanstack/react-query';
import { changeRequestPolicySchema, type ChangeRequestPolicy } from '@vexil/core';
import { apiClient } from '../../../lib/api-client';
import { changeRequestKeys } from './query-keys';

/**
 * GET …/environments/{environmentKey}/change-request-policy, for every member: whether the
 * environment asks for change requests, whether the caller may bypass them, and their open draft.
 */
export function getChangeRequestPolicy(
  projectKey: string,
  environmentKey: string,
  options: { featureControlId?: string | undefined; signal?: AbortSignal | undefined } = {},
): Promise<ChangeRequestPolicy> {
  const query = options.featureControlId
    ? `?featureControlId=${encodeURIComponent(options.featureControlId)}`
    : '';
  return apiClient.get(
    `/api/v1/projects/${encodeURIComponent(projectKey)}/environments/${encodeURIComponent(environmentKey)}/change-request-policy${query}`,
    { schema: changeRequestPolicySchema, signal: options.signal, notifyErrors: false },
  );
}

export const changeRequestPolicyQueryOptions = (projectKey: string, environmentKey: string) =>
  queryOptions({
    queryKey: changeRequestKeys.policy(projectKey, environmentKey),
    queryFn: ({ signal }) => getChangeRequestPolicy(projectKey, environmentKey, { signal }),
  });

/** One environment's change-request policy as the caller sees it. */
export function useChangeRequestPolicy(projectKey: string, environmentKey: string) {
  return useQuery(changeRequestPolicyQueryOptions(projectKey, environmentKey));
}
