import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { featureSchema, type Feature, type FeatureInput } from '@vexil/core';
import { invalidateFeatures } from './features-cache';
import { featureKeys } from './query-keys';

const featuresPath = (projectKey: string) => `/api/v1/projects/${encodeURIComponent(projectKey)}/features`;

/** What the Create feature page sends; the server adds the default variants (On, Off). */
export type CreateFeatureInput = {
  projectKey: string;
  name: string;
  key: string;
  jiraIssueKeys: string[];
};

/**
 * POST /api/v1/projects/{projectKey}/features → 201 Feature with an off control in every environment,
 * with the key sent; a key the project has is refused (400 on `key`). The page shows failures in its
 * form, so no generic toasts.
 */
export function createFeature({ projectKey, ...body }: CreateFeatureInput): Promise<Feature> {
  return apiClient.post(featuresPath(projectKey), body, { schema: featureSchema, notifyErrors: false });
}

export function useCreateFeature() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createFeature,
    onSuccess: () => invalidateFeatures(queryClient),
  });
}

export type SaveFeatureInput = { projectKey: string; feature: FeatureInput };

/**
 * PUT (with `id`) or POST /api/v1/projects/{projectKey}/features (docs/product.md §4 "Feature settings save").
 * The settings form shows failures itself (toast, alert and field errors), so no generic toasts.
 */
export function saveFeature({ projectKey, feature }: SaveFeatureInput): Promise<Feature> {
  const path = featuresPath(projectKey);
  const options = { schema: featureSchema, notifyErrors: false };
  return feature.id ? apiClient.put(path, feature, options) : apiClient.post(path, feature, options);
}

/** Saves, shows the saved feature at once and refreshes every features list. */
export function useSaveFeature() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveFeature,
    onSuccess: (saved) => {
      queryClient.setQueryData(featureKeys.detail(saved.projectKey, saved.key), saved);
      void invalidateFeatures(queryClient);
    },
  });
}
