import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { previewSchema, type Preview, type PreviewInput } from '@vexil/core';
import { changeRequestsApi } from './change-requests-cache';

export type PreviewChangeRequestInput = { projectKey: string; id: string; input: PreviewInput };

/**
 * POST …/change-requests/{id}/preview {user: {id, attributes}}: for each feature the request changes,
 * the variant that user is served now and would be served once it is applied. Nothing is stored, so
 * nothing is invalidated; the caller shows failures.
 */
export function previewChangeRequest({ projectKey, id, input }: PreviewChangeRequestInput): Promise<Preview> {
  return apiClient.post(changeRequestsApi(projectKey, id, 'preview'), input, {
    schema: previewSchema,
    notifyErrors: false,
  });
}

export function usePreviewChangeRequest() {
  return useMutation({ mutationFn: previewChangeRequest });
}
