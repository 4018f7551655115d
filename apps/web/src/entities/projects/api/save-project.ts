import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { projectSchema, type Project, type ProjectInput } from '@vexil/core';
import { useProjectsChanged, withProject } from './projects-cache';

/**
 * PUT /api/v1/projects/ (with id) or POST /api/v1/projects/. Errors are the form's to show, so no
 * generic toasts. The server creates a new project with its default environments.
 */
export function saveProject(input: ProjectInput): Promise<Project> {
  const options = { schema: projectSchema, notifyErrors: false };
  return input.id
    ? apiClient.put('/api/v1/projects/', { id: input.id, name: input.name, key: input.key }, options)
    : apiClient.post('/api/v1/projects/', { name: input.name, key: input.key }, options);
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
