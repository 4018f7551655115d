import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiClient } from '../../../lib/api-client';
import { featureSchema, type Feature, type HomeFeatureFilter } from '@vexil/core';
import { featureKeys } from './query-keys';

const featureListSchema = z.array(featureSchema);

/**
 * GET /api/v1/features/home?list=recent|bookmarked|maintaining: the home page lists (docs/product.md §2), at most
 * 100 features; `recent` is the most recently changed first.
 */
export function getHomeFeatures(list: HomeFeatureFilter, signal?: AbortSignal): Promise<Feature[]> {
  return apiClient.get('/api/v1/features/home', { schema: featureListSchema, query: { list }, signal });
}

export const homeFeaturesQueryOptions = (list: HomeFeatureFilter) =>
  queryOptions({
    queryKey: featureKeys.homeList(list),
    queryFn: ({ signal }) => getHomeFeatures(list, signal),
  });

/** The list keeps showing while another one loads, so switching filters does not flash a skeleton. */
export function useHomeFeatures(list: HomeFeatureFilter) {
  return useQuery({ ...homeFeaturesQueryOptions(list), placeholderData: keepPreviousData });
}
