import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiClient } from '../../../lib/api-client';
import { targetSchema, type Target } from '@vexil/core';
import { targetKeys } from './query-keys';

const targetListSchema = z.array(targetSchema);

/** GET /api/v1/projects/{projectKey}/targets: the user attributes the project's rules may test. */
export function getTargets(projectKey: string, signal?: AbortSignal): Promise<Target[]> {
  return apiClient.get(`/api/v1/projects/${encodeURIComponent(projectKey)}/targets`, {
    schema: targetListSchema,
    signal,
    // The targeting editor says in place that only the built-in targets are offered.
    notifyErrors: false,
  });
}

export const targetsQueryOptions = (projectKey: string) =>
  queryOptions({
    queryKey: targetKeys.list(projectKey),
    queryFn: ({ signal }) => getTargets(projectKey, signal),
    // Teammates add targets from other features' editors: read them afresh whenever an editor opens.
    staleTime: 0,
  });

export function useTargets(projectKey: string) {
  return useQuery(targetsQueryOptions(projectKey));
}
