import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { experimentSchema, type Experiment } from '@vexil/core';
import { experimentKeys } from './query-keys';

/** GET /api/v1/experiments/{id}: one experiment; an unknown (or another organisation's) one is 404. */
export function getExperiment(id: string, signal?: AbortSignal): Promise<Experiment> {
  return apiClient.get(`/api/v1/experiments/${encodeURIComponent(id)}`, {
    schema: experimentSchema,
    signal,
    // The statistics page shows Page not found or the failure in place.
    notifyErrors: false,
  });
}

export const experimentQueryOptions = (id: string) =>
  queryOptions({
    queryKey: experimentKeys.detail(id),
    queryFn: ({ signal }) => getExperiment(id, signal),
  });

/** One experiment; while `refetchInterval` is set it is asked again that often (ms). */
export function useExperiment(id: string, refetchInterval?: number | false) {
  return useQuery({ ...experimentQueryOptions(id), refetchInterval });
}
