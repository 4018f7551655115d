import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { accountKeys } from './query-keys';

/** PUT /api/v1/users/{id}/settings/intro/read: the welcome walkthrough has been closed. */
export function markIntroRead(userId: string): Promise<unknown> {
  return apiClient.put(`/api/v1/users/${encodeURIComponent(userId)}/settings/intro/read`);
}

/** Marks the intro read, then reloads the session, whose user then carries its introReadDate. */
export function useMarkIntroRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markIntroRead,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.initial }),
  });
}
