import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { invalidateFeatures } from './features-cache';

export type DeleteFeatureInput = { projectKey: string; featureId: string };

/**
 * DELETE /api/v1/project/{projectKey}/features/{featureId}/ → 204. A refusal (403 "Only a production
 * editor can delete a feature") is shown by the generic error toast.
 */
export async function deleteFeature({ projectKey, featureId }: DeleteFeatureInput): Promise<void> {
  await apiClient.delete(
    `/api/v1/project/${encodeURIComponent(projectKey)}/features/${encodeURIComponent(featureId)}/`,
  );
}

/**
 * Deletes and marks every features query stale. Nothing refetches now: the page that deleted is about to
 * leave, and refetching the deleted feature's detail would only flash Page not found; the lists refetch
 * when they are shown.
 */
export function useDeleteFeature() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteFeature,
    onSuccess: () => invalidateFeatures(queryClient, { refetchType: 'none' }),
  });
}
