import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiKeyKind } from '../../../components/api-keys-modal';
import { apiClient } from '../../../lib/api-client';
import { environmentSchema, type Environment } from '@vexil/core';

/** The environment with its SDK keys, under 'features' like every query of this feature. */
export const environmentKeysKey = (projectKey: string, environmentKey: string) =>
  ['features', 'environment', projectKey, environmentKey] as const;

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
    queryKey: environmentKeysKey(projectKey, environmentKey),
    queryFn: ({ signal }) => getEnvironment(projectKey, environmentKey, signal),
    // Keys change only by rotation, which updates this entry; no need to refetch on every open.
    staleTime: 5 * 60_000,
  });

/**
 * POST /api/v1/environments/{id}/keys/{server|js}/rotate (organisation admins): a new SDK key, the old
 * one stops working at once. Lives beside the read because it answers the same environment, which
 * replaces the cached one. The Api keys modal shows failures itself, so no generic toasts.
 */
export function rotateEnvironmentKey(id: string, kind: ApiKeyKind): Promise<Environment> {
  return apiClient.post(`/api/v1/environments/${encodeURIComponent(id)}/keys/${kind}/rotate`, undefined, {
    schema: environmentSchema,
    notifyErrors: false,
  });
}

export function useRotateEnvironmentKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, kind }: { id: string; kind: ApiKeyKind }) => rotateEnvironmentKey(id, kind),
    onSuccess: (environment) => {
      queryClient.setQueryData(environmentKeysKey(environment.projectKey, environment.key), environment);
      // The project admin screen lists the same keys under its own 'projects' queries.
      void queryClient.invalidateQueries({ queryKey: ['projects'] });
    },
  });
}
