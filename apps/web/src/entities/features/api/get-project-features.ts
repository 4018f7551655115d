import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiClient } from '../../../lib/api-client';
import { featureSchema, type Feature } from '@vexil/core';
import { featureKeys } from './query-keys';

const featureListSchema = z.array(featureSchema);

/**
 * GET /api/v1/projects/{projectKey}/features?query=text: the project's features whose name, key or
 * description contains the text, at most 50 (the link page's feature search).
 */
export function getProjectFeatures(projectKey: string, query = '', signal?: AbortSignal): Promise<Feature[]> {
  return apiClient.get(`/api/v1/projects/${encodeURIComponent(projectKey)}/features`, {
    schema: featureListSchema,
    query: { query: query === '' ? undefined : query },
    signal,
  });
}

export const projectFeaturesQueryOptions = (projectKey: string, query = '') =>
  queryOptions({
    queryKey: featureKeys.project(projectKey, query),
    queryFn: ({ signal }) => getProjectFeatures(projectKey, query, signal),
  });

/** Waits for a project; keeps the previous answer on screen while the next one (new text) loads. */
export function useProjectFeatures(projectKey: string | null, query = '') {
  return useQuery({
    ...projectFeaturesQueryOptions(projectKey ?? '', query),
    enabled: Boolean(projectKey),
    placeholderData: (previous, previousQuery) =>
      // Only text changes keep the old answer: another project's features must not show as this one's.
      previousQuery?.queryKey[2] === projectKey ? keepPreviousData(previous) : undefined,
  });
}
