import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { projectSchema, type Project, type ProjectInput } from '@vexil/core';
import { useProjectsChanged, withProject } from './projects-cache';

/**
 * PUT /api/v1/projects/ (with id) or POST /api/v1/projects/. Errors are the form's to show, so no
 * generic toasts. The server creates a new project with its default environments. An update sends the
 * version it was based on (`lastModifiedDate`): when the project changed since, 409 `stale_write`.
 */
export function saveProject(input: ProjectInput): Promise<Project> {
  const options = { schema: projectSchema, notifyErrors: false };
  const { id, name, key, lastModifiedDate } = input;
  return id
    ? apiClient.put('/api/v1/projects/', { id, name, key, lastModifiedDate }, options)
    : apiClient.post('/api/v1/projects/', { name, key }, options);
}

export function useSaveProject() {
  const changed = useProjectsChanged();
  return useMutation({
    mutationFn: saveProject,
    onSuccess: (project) => {
      void changed((projects) => withProject(projects, project));
    },
  });
}
