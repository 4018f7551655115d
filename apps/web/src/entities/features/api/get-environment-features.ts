import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import {
  featureListPageSchema,
  type FEATURE_PAGE_SIZES,
  type FeatureListPage,
  type FeatureListSortColumn,
  type FeatureStateFilter,
  type SortDirection,
  type TargetingStatus,
} from '@vexil/core';
import { featureKeys } from './query-keys';

/**
 * One page of an environment's features; each feature carries only that environment's control and
 * when it last changed.
 */
export type FeaturePage = FeatureListPage;

export type FeaturePageSize = (typeof FEATURE_PAGE_SIZES)[number];

/** The list's filters (docs/product.md §2 "Feature list"); all apply together. */
export type FeatureListFilters = {
  /** Features having every one of these tags; [] for any. */
  tags: string[];
  /** The feature on or off in this environment; null for either. */
  state: FeatureStateFilter | null;
  /** Only stale features (no impression for 7 days or more); false for all. */
  stale: boolean;
  /** The control's targeting status; null for any. */
  targeting: TargetingStatus | null;
};

export type EnvironmentFeaturesParams = FeatureListFilters & {
  projectKey: string;
  environmentKey: string;
  /** Text the name, key or description contains; '' for every feature. */
  query: string;
  /** Counts from 0. */
  page: number;
  pageSize: FeaturePageSize;
  sortBy: FeatureListSortColumn;
  sortDirection: SortDirection;
};

/** Whether cached data is a {@link FeaturePage}, for code that walks every features query. */
export function isFeaturePage(data: unknown): data is FeaturePage {
  return typeof data === 'object' && data !== null && Array.isArray((data as FeaturePage).content);
}

/**
 * GET /api/v1/projects/{projectKey}/environments/{environmentKey}/features?query=&page=&pageSize=
 * &sortBy=&sortDirection=&tag=…&state=&stale=&targeting=: one page of the environment's features,
 * sorted and filtered on the server, with the total.
 */
export function getEnvironmentFeatures(
  params: EnvironmentFeaturesParams,
  signal?: AbortSignal,
): Promise<FeaturePage> {
  const { projectKey, environmentKey, query, page, pageSize, sortBy, sortDirection } = params;
  // `tag` is repeated, one per tag: the client's query object holds one value a name.
  const tags = new URLSearchParams(params.tags.map((tag) => ['tag', tag])).toString();
  return apiClient.get(
    `/api/v1/projects/${encodeURIComponent(projectKey)}/environments/${encodeURIComponent(environmentKey)}/features${tags ? `?${tags}` : ''}`,
    {
      schema: featureListPageSchema,
      query: {
        query: query === '' ? undefined : query,
        page,
        pageSize,
        sortBy,
        sortDirection,
        state: params.state ?? undefined,
        stale: params.stale ? 'true' : undefined,
        targeting: params.targeting ?? undefined,
      },
      signal,
      // The feature list shows a failed load in place, with Retry: a toast would say it a second time.
      notifyErrors: false,
    },
  );
}

export const environmentFeaturesQueryOptions = (params: EnvironmentFeaturesParams) =>
  queryOptions({
    queryKey: featureKeys.environmentPage(params.projectKey, params.environmentKey, {
      query: params.query,
      page: params.page,
      pageSize: params.pageSize,
      sortBy: params.sortBy,
      sortDirection: params.sortDirection,
      tags: params.tags,
      state: params.state,
      stale: params.stale,
      targeting: params.targeting,
    }),
    queryFn: ({ signal }) => getEnvironmentFeatures(params, signal),
    // The previous page stays on screen (dimmed) while the next one loads, so paging, sorting and
    // filtering do not flash skeleton rows.
    placeholderData: keepPreviousData,
  });

export function useEnvironmentFeatures(params: EnvironmentFeaturesParams) {
  return useQuery(environmentFeaturesQueryOptions(params));
}
