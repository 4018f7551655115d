import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient, isApiError } from '../../../lib/api-client';
import { targetUserKeys } from './query-keys';

export type TargetUserRef = { projectKey: string; environmentKey: string; userId: string };

/**
 * DELETE /api/v1/projects/{projectKey}/environments/{environmentKey}/users/{userId} → 204: forgets the
 * user and their attributes (they come back if an SDK reports them again). 403 when the user may not
 * change the environment. The caller shows failures, so no generic toasts.
 */
export async function deleteTargetUser({ projectKey, environmentKey, userId }: TargetUserRef): Promise<void> {
  await apiClient.delete(
    `/api/v1/projects/${encodeURIComponent(projectKey)}/environments/${encodeURIComponent(environmentKey)}/users/${encodeURIComponent(userId)}`,
    { notifyErrors: false },
  );
}

export function useDeleteTargetUser() {
  const queryClient = useQueryClient();
  const refresh = (ref: TargetUserRef) =>
    queryClient.invalidateQueries({
      queryKey: targetUserKeys.environment(ref.projectKey, ref.environmentKey),
    });
  return useMutation({
    mutationFn: deleteTargetUser,
    onSuccess: (_data, ref) => void refresh(ref),
    // A user someone else already removed (404) should leave the list too.
    onError: (error, ref) => {
      if (isApiError(error) && error.status === 404) void refresh(ref);
    },
  });
}
