import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiClient } from '../../../lib/api-client';
import { idSchema, type Feature } from '@vexil/core';
import { featureDetailQueryKey } from './get-feature';

const bookmarkSchema = z.object({ featureId: idSchema, bookmarked: z.boolean() });

export type ToggleBookmarkInput = {
  projectKey: string;
  featureKey: string;
  featureId: string;
  bookmarked: boolean;
};

/**
 * PUT /api/v1/features/{featureId}/bookmark/{true|false} for the signed-in user. The detail page says
 * what went wrong itself (spec §8 "Bookmark failure"), so no generic toasts.
 */
export function toggleBookmark({ featureId, bookmarked }: ToggleBookmarkInput) {
  return apiClient.put(
    `/api/v1/features/${encodeURIComponent(featureId)}/bookmark/${String(bookmarked)}`,
    undefined,
    { schema: bookmarkSchema, notifyErrors: false },
  );
}

/** The star shows the new state at once and goes back on failure; every features query refreshes after. */
export function useToggleBookmark() {
  const queryClient = useQueryClient();
  const mark = ({ projectKey, featureKey }: ToggleBookmarkInput, bookmarked: boolean) =>
    queryClient.setQueryData<Feature>(featureDetailQueryKey(projectKey, featureKey), (feature) =>
      feature ? { ...feature, bookmarked } : feature,
    );
  return useMutation({
    mutationFn: toggleBookmark,
    onMutate: async (input) => {
      await queryClient.cancelQueries({
        queryKey: featureDetailQueryKey(input.projectKey, input.featureKey),
      });
      mark(input, input.bookmarked);
    },
    onError: (_error, input) => mark(input, !input.bookmarked),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['features'] }),
  });
}
