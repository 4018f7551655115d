import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { useProjectsChanged } from './projects-cache';

/**
 * DELETE /api/v1/projects/{key}, with its environments and features. The server refuses the last
 * project (400 "You must have at least one project."), which the generic warning toast shows.
 */
export async function deleteProject(key: string): Promise<void> {
  await apiClient.delete(`/api/v1/projects/${encodeURIComponent(key)}`);
}

export function useDeleteProject() {
  const changed = useProjectsChanged();
  return useMutation({
    mutationFn: deleteProject,
    onSuccess: (_, key) => {
      void changed((projects) => projects.filter((p) => p.key !== key));
    },
  });
}
