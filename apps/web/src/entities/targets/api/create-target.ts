import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { targetSchema, type Target, type TargetInput } from '@vexil/core';
import { targetKeys } from './query-keys';

export type CreateTargetInput = { projectKey: string; target: TargetInput };

/**
 * POST /api/v1/projects/{projectKey}/targets → 201 Target. A taken key is a 400 with a field error and a
 * read-only user gets 403 {title}; the create-target form shows both, so no generic toasts.
 */
export function createTarget({ projectKey, target }: CreateTargetInput): Promise<Target> {
  return apiClient.post(`/api/v1/projects/${encodeURIComponent(projectKey)}/targets`, target, {
    schema: targetSchema,
    notifyErrors: false,
  });
}

/** Creates a target and adds it to the project's target list straight away. */
export function useCreateTarget() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTarget,
    onSuccess: (created, { projectKey }) => {
      queryClient.setQueryData<Target[]>(targetKeys.list(projectKey), (targets) =>
        targets && !targets.some((t) => t.key === created.key) ? [...targets, created] : targets,
      );
      return queryClient.invalidateQueries({ queryKey: targetKeys.list(projectKey) });
    },
  });
}
