import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import type { ApiKeyKind } from '../../../components/api-keys-modal';
import { environmentSchema, type Environment } from '@vexil/core';
import { withEnvironment } from '../../projects/api/projects-cache';
import { projectKeys } from '../../projects/api/query-keys';
import { environmentKeys } from './query-keys';

export type RotateKeyInput = { id: string; kind: ApiKeyKind };

/**
 * POST /api/v1/environments/{id}/keys/{server|js}/rotate (organisation admins): a new SDK key; the old
 * one stops working at once. The Api keys modal shows failures itself, so no generic toasts.
 */
export function rotateEnvironmentKey({ id, kind }: RotateKeyInput): Promise<Environment> {
  return apiClient.post(`/api/v1/environments/${encodeURIComponent(id)}/keys/${kind}/rotate`, undefined, {
    schema: environmentSchema,
    notifyErrors: false,
  });
}

/**
 * Rotates, then puts the answer wherever the keys are cached: the environment itself (the feature
 * list's Api keys) and the projects list (project admin), whose queries then refetch. The session
 * carries no keys, so it stays as it is.
 */
export function useRotateEnvironmentKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rotateEnvironmentKey,
    onSuccess: (environment) => {
      queryClient.setQueryData(environmentKeys.detail(environment.projectKey, environment.key), environment);
      queryClient.setQueryData<Parameters<typeof withEnvironment>[0]>(projectKeys.list(''), (projects) =>
        projects ? withEnvironment(projects, environment) : projects,
      );
      void queryClient.invalidateQueries({ queryKey: projectKeys.all });
    },
  });
}
