import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { featureSchema, type Feature } from '@vexil/core';
import { apiClient } from '../../../lib/api-client';
import { featureKeys } from '../../../entities/features/api/query-keys';

const featureListSchema = z.array(featureSchema);

/**
 * GET /api/v1/features?filter=text: the features of every project the user can see whose name, key or
 * description contains the text, by name (at most 100). The quick search shows a failure in its own
 * list, so no generic toasts.
 */
export function searchFeatures(text: string, signal?: AbortSignal): Promise<Feature[]> {
  return apiClient.get('/api/v1/features', {
    schema: featureListSchema,
    query: { filter: text },
    notifyErrors: false,
    signal,
  });
}

/** Under the features domain's keys, so that a feature write refreshes the answers too. */
export const featureSearchQueryOptions = (text: string) =>
  queryOptions({
    queryKey: [...featureKeys.all, 'search', text] as const,
    queryFn: ({ signal }) => searchFeatures(text, signal),
  });

/**
 * The search for `text`, none for empty text. The previous answer stays while the next one loads, for the
 * caller to narrow to the text typed since.
 */
export function useFeatureSearch(text: string) {
  return useQuery({
    ...featureSearchQueryOptions(text),
    enabled: text !== '',
    placeholderData: keepPreviousData,
  });
}
