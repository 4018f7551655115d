import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { environmentSchema, type Environment, type EnvironmentInput } from '@vexil/core';
import { useProjectsChanged, withEnvironment } from '../../projects/api/projects-cache';

/**
 * PUT /api/v1/environments/ (with id) or POST /api/v1/environments/. Errors are the form's to show, so
 * no generic toasts. An update sends the version it was based on (`lastModifiedDate`): when the
 * environment changed since, 409 `stale_write`.
 */
export function saveEnvironment(input: EnvironmentInput): Promise<Environment> {
  const options = { schema: environmentSchema, notifyErrors: false };
  return input.id
    ? apiClient.put('/api/v1/environments/', input, options)
    : apiClient.post('/api/v1/environments/', input, options);
}

export function useSaveEnvironment() {
  const changed = useProjectsChanged();
  return useMutation({
    mutationFn: saveEnvironment,
    onSuccess: (environment) => {
      void changed((projects) => withEnvironment(projects, environment));
    },
  });
}
