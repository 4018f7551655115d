import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiClient } from '../../../lib/api-client';
import { featureKeys } from './query-keys';

const tagsSchema = z.array(z.string());

/** GET /api/v1/projects/{projectKey}/tags?query=: the tags used in a project, for suggestions. */
export function getTags(projectKey: string, query = '', signal?: AbortSignal): Promise<string[]> {
  return apiClient.get(`/api/v1/projects/${encodeURIComponent(projectKey)}/tags`, {
    schema: tagsSchema,
    query: { query },
    signal,
  });
}

export const tagsQueryOptions = (projectKey: string, query = '') =>
  queryOptions({
    queryKey: featureKeys.tags(projectKey, query),
    queryFn: ({ signal }) => getTags(projectKey, query, signal),
  });

/** Suggestions keep showing while the next ones load. */
export function useTags(projectKey: string, query = '', enabled = true) {
  return useQuery({ ...tagsQueryOptions(projectKey, query), enabled, placeholderData: keepPreviousData });
}
