import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient, isApiError } from '../../../lib/api-client';
import { tokenKeys } from './query-keys';

/** DELETE /api/internal/v1/tokens/{id} → 204; the token stops working at once. The caller says how it went. */
export async function deleteToken(id: string): Promise<void> {
  await apiClient.delete(`/api/internal/v1/tokens/${encodeURIComponent(id)}`, { notifyErrors: false });
}

export function useDeleteToken() {
  const queryClient = useQueryClient();
  const changed = () => queryClient.invalidateQueries({ queryKey: tokenKeys.all });
  return useMutation({
    mutationFn: deleteToken,
    onSuccess: () => void changed(),
    // A token already deleted elsewhere (404) leaves the list too.
    onError: (error) => {
      if (isApiError(error) && error.status === 404) void changed();
    },
  });
}
