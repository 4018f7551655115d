import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { featureSchema, type Feature, type FeatureControl } from '@vexil/core';
import { featureKeys } from './query-keys';

/**
 * GET /api/v1/projects/{projectKey}/features/{featureKey}, asked again every `intervalMs` while a screen
 * waits for something to happen to the feature (the Tutorial waits for an SDK to evaluate it). It shares
 * the feature's cache entry, so a write anywhere in the dashboard, or the live connection refreshing
 * features, shows at once. Failures are shown by the caller and never toasted: a poll would repeat the
 * toast every few seconds.
 */
export function watchFeature(projectKey: string, featureKey: string, signal?: AbortSignal): Promise<Feature> {
  return apiClient.get(
    `/api/v1/projects/${encodeURIComponent(projectKey)}/features/${encodeURIComponent(featureKey)}`,
    { schema: featureSchema, notifyErrors: false, signal },
  );
}

export const watchedFeatureQueryOptions = (
  projectKey: string,
  featureKey: string,
  intervalMs: number | false,
) =>
  queryOptions({
    queryKey: featureKeys.detail(projectKey, featureKey),
    queryFn: ({ signal }) => watchFeature(projectKey, featureKey, signal),
    refetchInterval: intervalMs,
  });

export function useWatchedFeature(projectKey: string, featureKey: string | null, intervalMs: number | false) {
  return useQuery({
    ...watchedFeatureQueryOptions(projectKey, featureKey ?? '', intervalMs),
    enabled: featureKey !== null,
  });
}

/**
 * Whether an SDK has evaluated the feature in this environment (docs/product.md §3 "Feature control",
 * docs/sdk-protocol.md §4.2): an evaluation marks the control available and moves its last impression.
 * Registration alone marks it available without an impression, so both are needed.
 */
export function seenBySdk(control: FeatureControl | undefined): boolean {
  return Boolean(control?.available && control.statistics.lastImpressionDate);
}
