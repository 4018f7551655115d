import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { useTeamChanged } from './team-cache';

/**
 * DELETE /api/v1/users/{id}: removes a member or cancels a pending invitation. The screen says what
 * failed in its own words (docs/product.md §8), so no generic toast.
 */
export async function removeTeamMember(id: string): Promise<void> {
  await apiClient.delete(`/api/v1/users/${encodeURIComponent(id)}`, { notifyErrors: false });
}

export function useRemoveTeamMember() {
  const changed = useTeamChanged();
  return useMutation({ mutationFn: removeTeamMember, onSettled: () => changed() });
}
