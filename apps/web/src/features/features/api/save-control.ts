import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Feature, FeatureControl, FeatureControlInput } from '@vexil/core';
import { featureDetailQueryKey } from './get-feature';
import { saveFeatureControl } from './save-feature-control';

export type SaveTargetingInput = {
  projectKey: string;
  featureKey: string;
  control: FeatureControlInput;
};

/**
 * The Targeting tab's save: PUT /api/v1/feature-controls/ without generic toasts (the tab words its own
 * failure and puts field errors on its fields). The saved control goes into the feature detail query at
 * once, so the editor's "saved" state is the server's; then every features query refreshes.
 */
export function useSaveTargeting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ control }: SaveTargetingInput) => saveFeatureControl(control),
    onSuccess: (saved: FeatureControl, { projectKey, featureKey }) => {
      queryClient.setQueryData<Feature>(featureDetailQueryKey(projectKey, featureKey), (feature) =>
        feature ? { ...feature, controls: { ...feature.controls, [saved.environmentKey]: saved } } : feature,
      );
      return queryClient.invalidateQueries({ queryKey: ['features'] });
    },
  });
}
