import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import type { ApiKeyKind } from '../../../components/api-keys-modal';
import { environmentSchema, type Environment } from '@vexil/core';
import { useProjectsChanged, withEnvironment } from './projects-cache';

export type RotateKeyInput = { id: string; kind: ApiKeyKind };

/**
 * POST /api/v1/environments/{id}/keys/{server|js}/rotate: a new SDK key; the old one stops working at
 * once. The Api keys modal shows failures itself, so no generic toasts.
 */
export function rotateEnvironmentKey({ id, kind }: RotateKeyInput): Promise<Environment> {
  return apiClient.post(`/api/v1/environments/${encodeURIComponent(id)}/keys/${kind}/rotate`, undefined, {
    schema: environmentSchema,
    notifyErrors: false,
  });
}

export function useRotateEnvironmentKey() {
  const changed = useProjectsChanged();
  return useMutation({
    mutationFn: rotateEnvironmentKey,
    onSuccess: (environment) => {
      void changed((projects) => withEnvironment(projects, environment));
    },
  });
}
