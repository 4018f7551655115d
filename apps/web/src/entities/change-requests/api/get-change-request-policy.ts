import { queryOptions, useQuery } from '@tanstack/react-query';
import { changeRequestPolicySchema, type ChangeRequestPolicy } from '@vexil/core';
import { apiClient } from '../../../lib/api-client';
import { changeRequestKeys } from './query-keys';

/** What is about to be changed, when known: a control, a feature's settings or a segment. */
export type ChangeRequestPolicySubject = {
  featureControlId?: string | undefined;
  featureId?: string | undefined;
  segmentId?: string | undefined;
};

/**
 * GET …/environments/{environmentKey}/change-request-policy, for every member: whether the
 * environment asks for change requests, whether the caller may bypass them, and where their change
 * goes: their open request there that already changes the subject named (`?featureControlId=`,
 * `?featureId=` or `?segmentId=`), else their newest draft there.
 */
export function getChangeRequestPolicy(
  projectKey: string,
  environmentKey: string,
  options: ChangeRequestPolicySubject & { signal?: AbortSignal | undefined } = {},
): Promise<ChangeRequestPolicy> {
  const { featureControlId, featureId, segmentId, signal } = options;
  return apiClient.get(
    `/api/v1/projects/${encodeURIComponent(projectKey)}/environments/${encodeURIComponent(environmentKey)}/change-request-policy`,
    {
      schema: changeRequestPolicySchema,
      query: { featureControlId, featureId, segmentId },
      signal,
      notifyErrors: false,
    },
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
