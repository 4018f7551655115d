import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { accountKeys } from '../../../entities/account/api/query-keys';

/** PUT /api/v1/users/{id}/settings/intro/read: the welcome walkthrough has been seen. */
export function markIntroRead(userId: string): Promise<unknown> {
  return apiClient.put(`/api/v1/users/${encodeURIComponent(userId)}/settings/intro/read`);
}

export function useMarkIntroRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markIntroRead,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.initial }),
  });
}
