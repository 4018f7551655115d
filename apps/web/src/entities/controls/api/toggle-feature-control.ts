import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { featureControlSchema, type FeatureControl, type FeatureControlToggleInput } from '@vexil/core';
import {
  changeCachedControl,
  controlChanged,
  restoreControls,
  snapshotControls,
  type ControlSnapshot,
} from './controls-cache';

/** The switch's body as sent: the comment, kept with the version the toggle creates, is optional. */
export type ToggleFeatureControlInput = Omit<FeatureControlToggleInput, 'comment'> & {
  id: string;
  comment?: string;
};

/**
 * PUT /api/v1/feature-controls/{id}/enabled {enabled, lastModifiedDate, comment?}: turns one control on or off and
 * leaves its targeting as stored, so a switch flipped from a list never puts back rules someone saved
 * since. `lastModifiedDate` is the control's version as the list showed it; a newer stored one answers
 * 409 `stale_write` (docs/adr/0013-concurrent-edits.md), and 403 when the user may not. Callers word the
 * failure themselves, so no generic toasts.
 */
export function toggleFeatureControl({
  id,
  enabled,
  lastModifiedDate,
  comment,
}: ToggleFeatureControlInput): Promise<FeatureControl> {
  return apiClient.put(
    `/api/v1/feature-controls/${encodeURIComponent(id)}/enabled`,
    { enabled, lastModifiedDate, ...(comment ? { comment } : {}) },
    { schema: featureControlSchema, notifyErrors: false },
  );
}

/**
 * Flips a switch optimistically: cached feature lists and feature pages show it at once, go back to what
 * they showed when the call fails, take the server's control when it succeeds; either way every features
 * query then refreshes, so after a refusal the switch shows what is stored.
 */
export function useToggleFeatureControl() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: toggleFeatureControl,
    onMutate: async (input): Promise<{ snapshot: ControlSnapshot }> => {
      const snapshot = await snapshotControls(queryClient);
      changeCachedControl(queryClient, input.id, (control) => ({ ...control, enabled: input.enabled }));
      return { snapshot };
    },
    onError: (_error, _input, context) => restoreControls(queryClient, context?.snapshot),
    onSuccess: (saved) => changeCachedControl(queryClient, saved.id, () => saved),
    onSettled: () => controlChanged(queryClient),
  });
}
