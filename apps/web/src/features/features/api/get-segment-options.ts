import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiClient } from '../../../lib/api-client';
import { segmentSchema, type Segment } from '@vexil/core';

const segmentListSchema = z.array(segmentSchema);

/**
 * GET /api/v2/segments/{projectKey}/{environmentKey}?query=: the environment's segments, for the segment
 * picker of a rule (a segment target's values are segment keys) and the editor's check that a rule
 * names only segments that exist.
 */
export function getSegmentOptions(
  projectKey: string,
  environmentKey: string,
  query = '',
  signal?: AbortSignal,
): Promise<Segment[]> {
  return apiClient.get(
    `/api/v2/segments/${encodeURIComponent(projectKey)}/${encodeURIComponent(environmentKey)}`,
    { schema: segmentListSchema, query: { query: query === '' ? undefined : query }, signal },
  );
}

export const segmentOptionsQueryOptions = (projectKey: string, environmentKey: string) =>
  queryOptions({
    queryKey: ['features', 'segment-options', projectKey, environmentKey] as const,
    queryFn: ({ signal }) => getSegmentOptions(projectKey, environmentKey, '', signal),
    // Segments are made on their own page: read them afresh whenever an editor opens.
    staleTime: 0,
  });

export function useSegmentOptions(projectKey: string, environmentKey: string) {
  return useQuery(segmentOptionsQueryOptions(projectKey, environmentKey));
}
