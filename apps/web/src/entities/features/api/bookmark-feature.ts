import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiClient } from '../../../lib/api-client';
import { idSchema, type Feature } from '@vexil/core';
import { invalidateFeatures } from './features-cache';
import { featureKeys } from './query-keys';

const bookmarkSchema = z.object({ featureId: idSchema, bookmarked: z.boolean() });

export type BookmarkInput = { featureId: string; bookmarked: boolean };

/**
 * PUT /api/v1/features/{featureId}/bookmark/{true|false} for the signed-in user. Callers say what went
 * wrong themselves (docs/product.md §8 "Bookmark failure"), so no generic toasts.
 */
export function bookmarkFeature({ featureId, bookmarked }: BookmarkInput): Promise<BookmarkInput> {
  return apiClient.put(
    `/api/v1/features/${encodeURIComponent(featureId)}/bookmark/${String(bookmarked)}`,
    undefined,
    { schema: bookmarkSchema, notifyErrors: false },
  );
}

/** Marks the feature in every cached list of features (plain lists and pages) and single feature. */
function markBookmarked(queryClient: QueryClient, { featureId, bookmarked }: BookmarkInput): void {
  const mark = (feature: Feature) => (feature.id === featureId ? { ...feature, bookmarked } : feature);
  queryClient.setQueriesData<unknown>({ queryKey: featureKeys.all }, (data: unknown) => {
    if (Array.isArray(data)) return (data as Feature[]).map(mark);
    if (typeof data !== 'object' || data === null) return data;
    if ('content' in data && Array.isArray(data.content)) {
      return { ...data, content: (data.content as Feature[]).map(mark) };
    }
    if ('id' in data && 'bookmarked' in data) return mark(data as Feature);
    return data;
  });
}

/**
 * The star shows the new state at once, on the home lists and the feature page alike; a failure puts
 * it back. Every features query refetches after.
 */
export function useBookmarkFeature() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bookmarkFeature,
    onMutate: async (input) => {
      await queryClient.cancelQueries({ queryKey: featureKeys.all });
      markBookmarked(queryClient, input);
    },
    onError: (_error, input) => markBookmarked(queryClient, { ...input, bookmarked: !input.bookmarked }),
    onSettled: () => invalidateFeatures(queryClient),
  });
}
