import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import {
  homeFeaturePageSchema,
  type FeatureSortColumn,
  type HomeFeatureFilter,
  type HomeFeaturePage,
  type SortDirection,
} from '@vexil/core';
import { featureKeys, type HomeFeaturesPageKey } from './query-keys';

export type HomeFeaturesRequest = HomeFeaturesPageKey & {
  list: HomeFeatureFilter;
  sortBy: FeatureSortColumn;
  sortDirection: SortDirection;
};

/**
 * GET /api/v1/features/home: one page (50) of a home list (docs/product.md §2), filtered and sorted on
 * the server. Generic toasts are off: the list shows its own failure, with a Retry button, in place of
 * the table, and a toast saying the same thing again would be the second of two identical messages.
 */
export function getHomeFeatures(
  request: HomeFeaturesRequest,
  signal?: AbortSignal,
): Promise<HomeFeaturePage> {
  return apiClient.get('/api/v1/features/home', {
    schema: homeFeaturePageSchema,
    query: {
      list: request.list,
      query: request.query.trim() || undefined,
      page: request.page,
      sortBy: request.sortBy,
      sortDirection: request.sortDirection,
    },
    notifyErrors: false,
    signal,
  });
}

export const homeFeaturesQueryOptions = (request: HomeFeaturesRequest) =>
  queryOptions({
    queryKey: featureKeys.homeList(request.list, {
      query: request.query.trim(),
      page: request.page,
      sortBy: request.sortBy,
      sortDirection: request.sortDirection,
    }),
    queryFn: ({ signal }) => getHomeFeatures(request, signal),
  });

/** The page keeps showing while another one loads, so paging or sorting does not flash a skeleton. */
export function useHomeFeatures(request: HomeFeaturesRequest) {
  return useQuery({ ...homeFeaturesQueryOptions(request), placeholderData: keepPreviousData });
}
