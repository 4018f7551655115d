import { useCallback } from 'react';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { featureSchema, type Feature } from '@vexil/core';
import { featureKeys } from './query-keys';

/**
 * GET /api/v1/projects/{projectKey}/features/{featureKey}: the feature with a control for every
 * environment of the project. An unknown feature answers 404, which the page shows as Page not found.
 */
export function getFeature(projectKey: string, featureKey: string, signal?: AbortSignal): Promise<Feature> {
  return apiClient.get(
    `/api/v1/projects/${encodeURIComponent(projectKey)}/features/${encodeURIComponent(featureKey)}`,
    { schema: featureSchema, signal },
  );
}

export const featureQueryOptions = (projectKey: string, featureKey: string) =>
  queryOptions({
    queryKey: featureKeys.detail(projectKey, featureKey),
    queryFn: ({ signal }) => getFeature(projectKey, featureKey, signal),
  });

export function useFeature(projectKey: string, featureKey: string) {
  return useQuery(featureQueryOptions(projectKey, featureKey));
}

/**
 * Loads a feature again from the server whatever the cache holds, for a form whose save was refused as
 * stale (409 `stale_write`): resolves to the stored feature, which every screen showing it then shows.
 */
export function useReloadFeature() {
  const queryClient = useQueryClient();
  return useCallback(
    (projectKey: string, featureKey: string) =>
      queryClient.fetchQuery({ ...featureQueryOptions(projectKey, featureKey), staleTime: 0 }),
    [queryClient],
  );
}
