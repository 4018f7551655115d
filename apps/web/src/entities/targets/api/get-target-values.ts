import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiClient } from '../../../lib/api-client';
import { targetKeys } from './query-keys';

const valuesSchema = z.array(z.string());

/**
 * GET /api/v1/projects/{projectKey}/targets/{targetKey}/values?query=q: values of one attribute used in
 * rules and seen from SDK users, containing `query` (at most 50), for the rule editor's suggestions.
 */
export function getTargetValues(
  projectKey: string,
  targetKey: string,
  query = '',
  signal?: AbortSignal,
): Promise<string[]> {
  return apiClient.get(
    `/api/v1/projects/${encodeURIComponent(projectKey)}/targets/${encodeURIComponent(targetKey)}/values`,
    { schema: valuesSchema, query: { query: query === '' ? undefined : query }, signal, notifyErrors: false },
  );
}

export const targetValuesQueryOptions = (projectKey: string, targetKey: string, query = '') =>
  queryOptions({
    queryKey: targetKeys.valuesOf(projectKey, targetKey, query),
    queryFn: ({ signal }) => getTargetValues(projectKey, targetKey, query, signal),
  });

/** Suggestions keep showing while the next ones load; nothing is asked without a target. */
export function useTargetValues(projectKey: string, targetKey: string, query = '', enabled = true) {
  return useQuery({
    ...targetValuesQueryOptions(projectKey, targetKey, query),
    enabled: enabled && targetKey !== '',
    placeholderData: keepPreviousData,
  });
}
