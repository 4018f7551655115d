import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { featureSchema, pageOf, type Feature, type FEATURE_PAGE_SIZES } from '@vexil/core';
import { featureKeys } from './query-keys';

const featurePageSchema = pageOf(featureSchema);

/** One page of an environment's features; each feature carries only that environment's control. */
export type FeaturePage = {
  content: Feature[];
  last: boolean;
  page: number;
  pageSize: number;
  totalElements?: number | undefined;
};

export type FeaturePageSize = (typeof FEATURE_PAGE_SIZES)[number];

export type EnvironmentFeaturesParams = {
  projectKey: string;
  environmentKey: string;
  /** Text the name, key or description contains; '' for every feature. */
  query: string;
  /** Counts from 0. */
  page: number;
  pageSize: FeaturePageSize;
};

/** Whether cached data is a {@link FeaturePage}, for code that walks every features query. */
export function isFeaturePage(data: unknown): data is FeaturePage {
  return typeof data === 'object' && data !== null && Array.isArray((data as FeaturePage).content);
}

/**
 * GET /api/v1/projects/{projectKey}/environments/{environmentKey}/features?query=&page=&pageSize=: one
 * page of the environment's features by name, with the total.
 */
export function getEnvironmentFeatures(
  { projectKey, environmentKey, query, page, pageSize }: EnvironmentFeaturesParams,
  signal?: AbortSignal,
): Promise<FeaturePage> {
  return apiClient.get(
    `/api/v1/projects/${encodeURIComponent(projectKey)}/environments/${encodeURIComponent(environmentKey)}/features`,
    {
      schema: featurePageSchema,
      query: { query: query === '' ? undefined : query, page, pageSize },
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
    }),
    queryFn: ({ signal }) => getEnvironmentFeatures(params, signal),
    // The previous page stays on screen (dimmed) while the next one loads, so paging does not jump.
    placeholderData: keepPreviousData,
  });

export function useEnvironmentFeatures(params: EnvironmentFeaturesParams) {
  return useQuery(environmentFeaturesQueryOptions(params));
}
