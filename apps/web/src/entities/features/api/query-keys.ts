import type {
  FeatureSortColumn,
  FeatureStateFilter,
  HomeFeatureFilter,
  SortDirection,
  TargetingStatus,
} from '@vexil/core';

export type EnvironmentFeaturesPageKey = {
  query: string;
  page: number;
  pageSize: number;
  sortBy: FeatureSortColumn;
  sortDirection: SortDirection;
  tags: string[];
  state: FeatureStateFilter | null;
  stale: boolean;
  targeting: TargetingStatus | null;
};
export type HomeFeaturesPageKey = {
  query: string;
  page: number;
  sortBy?: FeatureSortColumn;
  sortDirection?: SortDirection;
};

/**
 * The features domain's cache keys. Every features query starts with `all`, so that one invalidation
 * after a feature write refreshes every list, page and detail.
 */
export const featureKeys = {
  all: ['features'] as const,
  /** Every page and search of one environment's feature list. */
  environment: (projectKey: string, environmentKey: string) =>
    [...featureKeys.all, 'env', projectKey, environmentKey] as const,
  /** Every environment's feature list, for writes that change controls wherever they show. */
  environments: () => [...featureKeys.all, 'env'] as const,
  environmentPage: (projectKey: string, environmentKey: string, page: EnvironmentFeaturesPageKey) =>
    [...featureKeys.environment(projectKey, environmentKey), 'page', page] as const,
  /** Every feature's detail, for writes that change controls wherever they show. */
  details: () => [...featureKeys.all, 'detail'] as const,
  /** One feature with a control for every environment of its project. */
  detail: (projectKey: string, featureKey: string) =>
    [...featureKeys.all, 'detail', projectKey, featureKey] as const,
  /**
   * A feature's history: its settings' versions (`environmentKey` null) or its control's in one
   * environment. Under `all`, so every feature write marks the histories stale too.
   */
  versions: (projectKey: string, featureKey: string, environmentKey: string | null) =>
    [...featureKeys.all, 'versions', projectKey, featureKey, environmentKey ?? ''] as const,
  /** One diff between two versions of one resource. */
  versionDiff: (
    projectKey: string,
    featureKey: string,
    environmentKey: string | null,
    a: number,
    b: number,
  ) => [...featureKeys.all, 'version-diff', projectKey, featureKey, environmentKey ?? '', a, b] as const,
  /** Every list of the home page. */
  home: () => [...featureKeys.all, 'home'] as const,
  /** Every page of one home list. */
  homeList: (list: HomeFeatureFilter, page?: HomeFeaturesPageKey) =>
    page ? ([...featureKeys.home(), list, page] as const) : ([...featureKeys.home(), list] as const),
  /** A project's features whose name, key or description contains `query`. */
  project: (projectKey: string, query: string) => [...featureKeys.all, 'project', projectKey, query] as const,
  /** Whether a project has a feature key; a feature write makes the answer stale. */
  keyCheck: (projectKey: string, key: string) => [...featureKeys.all, 'key', projectKey, key] as const,
  /** The tags used in a project matching `query`. */
  tags: (projectKey: string, query: string) => [...featureKeys.all, 'tags', projectKey, query] as const,
};
