import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import {
  featureControlSchema,
  type Feature,
  type FeatureControl,
  type FeatureControlInput,
} from '@vexil/core';
import { featureKeys } from '../../features/api/query-keys';
import { controlChanged } from './controls-cache';

/**
 * PUT /api/v1/feature-controls/ {id, enabled, offVariantKey, rules, lastModifiedDate}: the on/off switch
 * and targeting of one feature in one environment. `lastModifiedDate` is the version the edit started
 * from; when the control changed since, the server answers 409 `stale_write` and stores nothing
 * (docs/adr/0013-concurrent-edits.md). It refuses with 403 when the user may not (production needs a
 * production editor). Callers word the failure themselves, so no generic toasts.
 */
export function saveFeatureControl(input: FeatureControlInput): Promise<FeatureControl> {
  const { id, enabled, offVariantKey, rules, lastModifiedDate, comment } = input;
  return apiClient.put(
    '/api/v1/feature-controls/',
    { id, enabled, offVariantKey, rules, lastModifiedDate, ...(comment ? { comment } : {}) },
    { schema: featureControlSchema, notifyErrors: false },
  );
}

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
      queryClient.setQueryData<Feature>(featureKeys.detail(projectKey, featureKey), (feature) =>
        feature ? { ...feature, controls: { ...feature.controls, [saved.environmentKey]: saved } } : feature,
      );
      return controlChanged(queryClient);
    },
  });
}
