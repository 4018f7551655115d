import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { featureSchema, type Feature, type LinkFeatureInput } from '@vexil/core';
import { invalidateFeatures } from './features-cache';

/**
 * PUT /api/v1/features/link {featureId, jiraIssueKey} → the feature with the issue linked. The link page
 * shows failures in its form, so no generic toasts.
 */
export function linkFeature(input: LinkFeatureInput): Promise<Feature> {
  return apiClient.put('/api/v1/features/link', input, { schema: featureSchema, notifyErrors: false });
}

export function useLinkFeature() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: linkFeature,
    onSuccess: () => invalidateFeatures(queryClient),
  });
}
