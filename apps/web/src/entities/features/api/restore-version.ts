import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { featureControlSchema, type RestoreVersionInput } from '@vexil/core';
import { z } from 'zod';
import { invalidateFeatures } from './features-cache';
import type { VersionedPart } from './get-versions';

/** What a restore sends: the version brought forward, the newest the restorer saw, and why. */
export type RestoreVersion = VersionedPart & {
  number: number;
  currentVersion: RestoreVersionInput['currentVersion'];
  comment?: string;
};

/**
 * POST …/versions/{number}/restore {currentVersion, comment?}: brings a version forward as a new one.
 * A newer version than `currentVersion` answers 409 `stale_write`, one equal to the current state 409
 * `nothing_to_restore`; the caller words them, so no generic toasts.
 */
export function restoreVersion({
  projectKey,
  featureKey,
  environmentKey,
  number,
  currentVersion,
  comment,
}: RestoreVersion): Promise<unknown> {
  return apiClient.post(
    `/api/v1/projects/${encodeURIComponent(projectKey)}/features/${encodeURIComponent(featureKey)}/versions/${number}/restore`,
    { currentVersion, ...(comment ? { comment } : {}) },
    {
      schema: environmentKey === null ? z.unknown() : (featureControlSchema as z.ZodType<unknown>),
      query: environmentKey === null ? {} : { environmentKey },
      notifyErrors: false,
    },
  );
}

/** Restores a version; every feature query (lists, the page, its histories and audit) then refreshes. */
export function useRestoreVersion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: restoreVersion,
    onSettled: () => invalidateFeatures(queryClient),
  });
}
