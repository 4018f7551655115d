import { queryOptions, useQuery } from '@tanstack/react-query';
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
