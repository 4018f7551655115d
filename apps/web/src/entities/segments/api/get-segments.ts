import { useCallback } from 'react';
import { keepPreviousData, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiClient } from '../../../lib/api-client';
import { segmentSchema, type Segment } from '@vexil/core';
import { segmentKeys } from './query-keys';

const segmentListSchema = z.array(segmentSchema);

export type SegmentListParams = { projectKey: string; environmentKey: string; query: string };

/**
 * GET /api/v2/segments/{projectKey}/{environmentKey}?query=q: the environment's segments whose name, key
 * or description contains `query`, ordered by name.
 */
export function getSegments(
  { projectKey, environmentKey, query }: SegmentListParams,
  signal?: AbortSignal,
): Promise<Segment[]> {
  return apiClient.get(
    `/api/v2/segments/${encodeURIComponent(projectKey)}/${encodeURIComponent(environmentKey)}`,
    {
      schema: segmentListSchema,
      query: { query: query === '' ? undefined : query },
      signal,
      // The Segments page shows a failed load in place, with Retry, and the targeting editor says
      // what it cannot offer: a toast would say it a second time.
      notifyErrors: false,
    },
  );
}

export const segmentsQueryOptions = (params: SegmentListParams) =>
  queryOptions({
    queryKey: segmentKeys.list(params.projectKey, params.environmentKey, params.query),
    queryFn: ({ signal }) => getSegments(params, signal),
    // While a new search loads, the previous answer stays on screen (dimmed) instead of a skeleton.
    placeholderData: keepPreviousData,
  });

export function useSegments(params: SegmentListParams) {
  return useQuery(segmentsQueryOptions(params));
}

/**
 * Loads an environment's segments again from the server, for a form whose save was refused as stale
 * (409 `stale_write`): every segments list and search refreshes, and this resolves to the stored
 * segment `id` (undefined when it is gone).
 */
export function useReloadSegment() {
  const queryClient = useQueryClient();
  return useCallback(
    async (params: Omit<SegmentListParams, 'query'>, id: string): Promise<Segment | undefined> => {
      void queryClient.invalidateQueries({ queryKey: segmentKeys.all });
      const segments = await queryClient.fetchQuery({
        ...segmentsQueryOptions({ ...params, query: '' }),
        staleTime: 0,
      });
      return segments.find((segment) => segment.id === id);
    },
    [queryClient],
  );
}
