import { useCallback } from 'react';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiClient } from '../../../lib/api-client';
import { projectSchema, type Project } from '@vexil/core';
import { projectKeys } from './query-keys';

const projectListSchema = z.array(projectSchema);

/**
 * GET /api/v1/projects?query=q: the organisation's projects whose name or key matches, ordered by name,
 * each with its environments and their SDK keys.
 */
export function getProjects(query = '', signal?: AbortSignal): Promise<Project[]> {
  return apiClient.get('/api/v1/projects', {
    schema: projectListSchema,
    query: { query: query === '' ? undefined : query },
    signal,
  });
}

export const projectsQueryOptions = (query = '') =>
  queryOptions({
    queryKey: projectKeys.list(query),
    queryFn: ({ signal }) => getProjects(query, signal),
  });

export function useProjects(query = '') {
  return useQuery(projectsQueryOptions(query));
}

/**
 * Loads the projects (with their environments) again from the server whatever the cache holds, for a
 * form whose save was refused as stale (409 `stale_write`): resolves to the stored list.
 */
export function useReloadProjects() {
  const queryClient = useQueryClient();
  return useCallback(
    () => queryClient.fetchQuery({ ...projectsQueryOptions(), staleTime: 0 }),
    [queryClient],
  );
}
