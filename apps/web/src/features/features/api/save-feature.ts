import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { featureSchema, type Feature, type FeatureInput } from '@vexil/core';
import { featureDetailQueryKey } from './get-feature';

export type SaveFeatureInput = { projectKey: string; feature: FeatureInput };

/**
 * PUT (with `id`) or POST /api/v1/projects/{projectKey}/features (spec §4 "Feature settings save").
 * The settings form shows failures itself (toast, alert and field errors), so no generic toasts.
 */
export function saveFeature({ projectKey, feature }: SaveFeatureInput): Promise<Feature> {
  const path = `/api/v1/projects/${encodeURIComponent(projectKey)}/features`;
  const options = { schema: featureSchema, notifyErrors: false };
  return feature.id ? apiClient.put(path, feature, options) : apiClient.post(path, feature, options);
}

/** Saves, shows the saved feature at once and refreshes every features list. */
export function useSaveFeature() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveFeature,
    onSuccess: (saved) => {
      queryClient.setQueryData(featureDetailQueryKey(saved.projectKey, saved.key), saved);
      void queryClient.invalidateQueries({ queryKey: ['features'] });
    },
  });
}
