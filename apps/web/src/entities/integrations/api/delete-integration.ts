import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient, isApiError } from '../../../lib/api-client';
import { accountKeys } from '../../account/api/query-keys';
import { integrationKeys } from './query-keys';

/**
 * DELETE /api/v1/integrations/{id} → 204: the chat channel is told of nothing more, or the issue tracker's
 * keys stop resolving to titles. The caller says how it went.
 */
export async function deleteIntegration(id: string): Promise<void> {
  await apiClient.delete(`/api/v1/integrations/${encodeURIComponent(id)}`, { notifyErrors: false });
}

export function useDeleteIntegration() {
  const queryClient = useQueryClient();
  // The session too: it says whether Jira is connected.
  const changed = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: integrationKeys.all }),
      queryClient.invalidateQueries({ queryKey: accountKeys.initial }),
    ]);
  return useMutation({
    mutationFn: deleteIntegration,
    onSuccess: () => void changed(),
    // One already removed elsewhere (404) leaves the list too.
    onError: (error) => {
      if (isApiError(error) && error.status === 404) void changed();
    },
  });
}
