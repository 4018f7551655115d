import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { changeRequestSchema, type ChangeRequest, type ChangeRequestInput } from '@vexil/core';
import { changeRequestsApi, useChangeRequestChanged } from './change-requests-cache';

export type CreateChangeRequestInput = { projectKey: string; request: ChangeRequestInput };

/**
 * POST /api/v1/projects/{projectKey}/change-requests {environmentKey, title, description} → 201, the new
 * draft. 400 with field errors, 403 without the rights to change the environment; the caller shows them.
 */
export function createChangeRequest({
  projectKey,
  request,
}: CreateChangeRequestInput): Promise<ChangeRequest> {
  return apiClient.post(changeRequestsApi(projectKey), request, {
    schema: changeRequestSchema,
    notifyErrors: false,
  });
}

export function useCreateChangeRequest() {
  const changed = useChangeRequestChanged();
  return useMutation({ mutationFn: createChangeRequest, onSuccess: (created) => void changed(created) });
}
