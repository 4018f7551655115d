import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiClient } from '../../../lib/api-client';
import { featureSchema, type Feature, type HomeFeatureFilter } from '@vexil/core';

const featureListSchema = z.array(featureSchema);

/** Every home list query starts with this key; it sits under ['features'] like every features query. */
export const homeFeaturesQueryKey = ['features', 'home'] as const;

/**
 * GET /api/v1/features/home?list=recent|bookmarked|maintaining: the home page lists (spec §2), at most
 * 100 features; `recent` is the most recently changed first.
 */
export function getHomeFeatures(list: HomeFeatureFilter, signal?: AbortSignal): Promise<Feature[]> {
  return apiClient.get('/api/v1/features/home', { schema: featureListSchema, query: { list }, signal });
}

export const homeFeaturesQueryOptions = (list: HomeFeatureFilter) =>
  queryOptions({
    queryKey: [...homeFeaturesQueryKey, list],
    queryFn: ({ signal }) => getHomeFeatures(list, signal),
  });

/** The list keeps showing while another one loads, so switching filters does not flash a skeleton. */
export function useHomeFeatures(list: HomeFeatureFilter) {
  return useQuery({ ...homeFeaturesQueryOptions(list), placeholderData: keepPreviousData });
}
