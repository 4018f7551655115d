import { queryOptions } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { environmentSchema, type Environment } from '@vexil/core';
import { environmentKeys } from './query-keys';

/**
 * GET /api/v1/environments/{projectKey}/{environmentKey}: the environment with its server and JS
 * client SDK keys (the session's projects carry no keys), for the Api keys modal. Failures are shown
 * by the caller.
 */
export function getEnvironment(
  projectKey: string,
  environmentKey: string,
  signal?: AbortSignal,
): Promise<Environment> {
  return apiClient.get(
    `/api/v1/environments/${encodeURIComponent(projectKey)}/${encodeURIComponent(environmentKey)}`,
    { schema: environmentSchema, notifyErrors: false, signal },
  );
}

export const environmentQueryOptions = (projectKey: string, environmentKey: string) =>
  queryOptions({
    queryKey: environmentKeys.detail(projectKey, environmentKey),
    queryFn: ({ signal }) => getEnvironment(projectKey, environmentKey, signal),
    // Keys change only by rotation, which updates this entry; no need to refetch on every open.
    staleTime: 5 * 60_000,
  });
