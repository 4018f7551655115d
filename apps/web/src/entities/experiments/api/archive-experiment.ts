import { useMutation } from '@tanstack/react-query';
import { apiClient, isApiError } from '../../../lib/api-client';
import { useExperimentsChanged } from './experiments-cache';

/**
 * DELETE /api/v1/experiments/{id} → 204: archives the experiment (it leaves the lists). 403 when the
 * user may not; the caller shows the failure, so no generic toasts.
 */
export async function archiveExperiment(id: string): Promise<void> {
  await apiClient.delete(`/api/v1/experiments/${encodeURIComponent(id)}`, { notifyErrors: false });
}

export function useArchiveExperiment() {
  const changed = useExperimentsChanged();
  return useMutation({
    mutationFn: archiveExperiment,
    onSuccess: () => void changed(),
    // One someone else already archived (404) should leave the list too.
    onError: (error) => {
      if (isApiError(error) && error.status === 404) void changed();
    },
  });
}
