import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiClient } from '../../../lib/api-client';
import { goalSchema, type Goal } from '@vexil/core';
import { experimentKeys } from './query-keys';

const goalListSchema = z.array(goalSchema);

/**
 * GET /api/v1/goals?projectKey={p}&query={q}: the goals SDKs reported in the project whose key or name
 * contains the text, for the experiment form's suggestions.
 */
export function getGoals(projectKey: string, query = '', signal?: AbortSignal): Promise<Goal[]> {
  return apiClient.get('/api/v1/goals', {
    schema: goalListSchema,
    query: { projectKey, query: query === '' ? undefined : query },
    signal,
    // Suggestions only: a goal may be typed freely, so a failure needs no toast.
    notifyErrors: false,
  });
}

export const goalsQueryOptions = (projectKey: string, query = '') =>
  queryOptions({
    queryKey: experimentKeys.goals(projectKey, query),
    queryFn: ({ signal }) => getGoals(projectKey, query, signal),
  });

/** Keeps the previous suggestions on screen while those for new text load. */
export function useGoals(projectKey: string, query = '') {
  return useQuery({ ...goalsQueryOptions(projectKey, query), placeholderData: keepPreviousData });
}
