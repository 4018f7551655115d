import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { useProjectsChanged, withoutEnvironment } from '../../projects/api/projects-cache';

/**
 * DELETE /api/v1/environments/{id}. The server refuses a project's last environment (400 "You must have
 * at least one environment."), which the generic warning toast shows.
 */
export async function deleteEnvironment(id: string): Promise<void> {
  await apiClient.delete(`/api/v1/environments/${encodeURIComponent(id)}`);
}

export function useDeleteEnvironment() {
  const changed = useProjectsChanged();
  return useMutation({
    mutationFn: deleteEnvironment,
    onSuccess: (_, id) => {
      void changed((projects) => withoutEnvironment(projects, id));
    },
  });
}
