import { useMutation } from '@tanstack/react-query';
import { apiClient, isApiError } from '../../../lib/api-client';
import { useSegmentsChanged } from './segments-cache';

/**
 * DELETE /api/v2/segments/{id} → 204. The server refuses a segment that targeting rules still use (400
 * with a title naming the features) and writes the user may not make (403). The caller shows the
 * failure, so no generic toasts.
 */
export async function deleteSegment(id: string): Promise<void> {
  await apiClient.delete(`/api/v2/segments/${encodeURIComponent(id)}`, { notifyErrors: false });
}

export function useDeleteSegment() {
  const changed = useSegmentsChanged();
  return useMutation({
    mutationFn: deleteSegment,
    onSuccess: () => void changed(),
    // A segment someone else already deleted (404) should leave the list too.
    onError: (error) => {
      if (isApiError(error) && error.status === 404) void changed();
    },
  });
}
