import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { featureSchema, type Feature } from '@vexil/core';

/** What the Create feature page sends; the server adds the default variants (On, Off). */
export type CreateFeatureInput = {
  projectKey: string;
  name: string;
  key: string;
  jiraIssueKeys: string[];
};

/**
 * POST /api/v1/projects/{projectKey}/features → 201 Feature with an off control in every environment.
 * The server may change the key to keep it unique (e.g. "checkout1"): use the returned key. The page
 * shows failures in its form, so no generic toasts.
 */
export function createFeature({ projectKey, ...body }: CreateFeatureInput): Promise<Feature> {
  return apiClient.post(`/api/v1/projects/${encodeURIComponent(projectKey)}/features`, body, {
    schema: featureSchema,
    notifyErrors: false,
  });
}

export function useCreateFeature() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createFeature,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['features'] }),
  });
}
