import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { apiClient } from '../../../lib/api-client';
import { projectSchema, type Project } from '@vexil/core';

const projectListSchema = z.array(projectSchema);

/*
 * GET /api/v1/projects?query=: the projects whose name or key contains the text, by name. The key has the
 * projects feature's shape (['projects','list',query]), so the same answer is shared and every projects
 * write refreshes it; features may not import one another, hence this copy of the call.
 */
export const projectSearchQueryOptions = (query: string) =>
  queryOptions({
    queryKey: ['projects', 'list', query] as const,
    queryFn: ({ signal }) =>
      apiClient.get<Project[]>('/api/v1/projects', {
        schema: projectListSchema,
        query: { query: query === '' ? undefined : query },
        signal,
      }),
  });
