import { useMutation, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import {
  featureControlSchema,
  type Feature,
  type FeatureControl,
  type FeatureControlInput,
} from '@vexil/core';
import { featureKeys } from '../../features/api/query-keys';
import { invalidateFeatures } from '../../features/api/features-cache';
import { isFeaturePage, type FeaturePage } from '../../features/api/get-environment-features';
import { targetKeys } from '../../targets/api/query-keys';

/**
 * PUT /api/v1/feature-controls/ {id, enabled, offVariantKey, rules}: the on/off switch and targeting of
 * one feature in one environment. The server refuses with 403 {title} when the user may not (production
 * needs a production editor). Callers word the failure themselves, so no generic toasts.
 */
export function saveFeatureControl(input: FeatureControlInput): Promise<FeatureControl> {
  const { id, enabled, offVariantKey, rules } = input;
  return apiClient.put(
    '/api/v1/feature-controls/',
    { id, enabled, offVariantKey, rules },
    { schema: featureControlSchema, notifyErrors: false },
  );
}

type Snapshot = [QueryKey, unknown][];

/** The page with the control `id` changed by `change`; the same page when it does not hold it. */
function withControl(
  page: FeaturePage,
  id: string,
  change: (control: FeatureControl) => FeatureControl,
): FeaturePage {
  let changed = false;
  const content = page.content.map((feature): Feature => {
    const entry = Object.entries(feature.controls).find(([, control]) => control.id === id);
    if (!entry) return feature;
    changed = true;
    const [environmentKey, control] = entry;
    return { ...feature, controls: { ...feature.controls, [environmentKey]: change(control) } };
  });
  return changed ? { ...page, content } : page;
}

/** Applies `change` to the control `id` in every cached environment feature page. */
function changeCachedControl(
  queryClient: QueryClient,
  id: string,
  change: (control: FeatureControl) => FeatureControl,
): void {
  queryClient.setQueriesData({ queryKey: featureKeys.environments() }, (data: unknown) =>
    isFeaturePage(data) ? withControl(data, id, change) : data,
  );
}

/**
 * After a control write: every features query (lists and pages show controls), every feature's audit
 * log, and the value suggestions, which include the values the rules use.
 */
function controlChanged(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    invalidateFeatures(queryClient),
    queryClient.invalidateQueries({ queryKey: targetKeys.values() }),
  ]);
}

/**
 * Saves a control optimistically: cached feature lists show the new switch at once, go back to what
 * they showed when the save fails, take the server's control when it succeeds, and then every
 * features query refreshes (spec: after any feature write, invalidate the features queries).
 */
export function useSaveFeatureControl() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveFeatureControl,
    onMutate: async (input): Promise<{ snapshot: Snapshot }> => {
      await queryClient.cancelQueries({ queryKey: featureKeys.environments() });
      const snapshot = queryClient.getQueriesData({ queryKey: featureKeys.environments() });
      changeCachedControl(queryClient, input.id, (control) => ({
        ...control,
        enabled: input.enabled,
        offVariantKey: input.offVariantKey,
        rules: input.rules,
      }));
      return { snapshot };
    },
    onError: (_error, _input, context) => {
      for (const [queryKey, data] of context?.snapshot ?? []) queryClient.setQueryData(queryKey, data);
    },
    onSuccess: (saved) => {
      changeCachedControl(queryClient, saved.id, () => saved);
    },
    onSettled: () => controlChanged(queryClient),
  });
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
