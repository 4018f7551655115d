import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { experimentStatisticsSchema, type ExperimentStatistics } from '@vexil/core';
import { experimentKeys } from './query-keys';

/**
 * GET /api/v1/experiment-statistics/{id}: the experiment's figures so far, its test, intervals,
 * sample-ratio check and cumulative daily counts (docs/adr/0015-experiment-statistics.md).
 */
export function getExperimentStatistics(id: string, signal?: AbortSignal): Promise<ExperimentStatistics> {
  return apiClient.get(`/api/v1/experiment-statistics/${encodeURIComponent(id)}`, {
    schema: experimentStatisticsSchema,
    signal,
    // The statistics page shows a failed load in place, with Retry.
    notifyErrors: false,
  });
}

export const experimentStatisticsQueryOptions = (id: string) =>
  queryOptions({
    queryKey: experimentKeys.statistics(id),
    queryFn: ({ signal }) => getExperimentStatistics(id, signal),
  });

/**
 * One experiment's statistics; waits while `enabled` is false (an experiment not started has none),
 * and is asked again every `refetchInterval` ms while that is set.
 */
export function useExperimentStatistics(
  id: string,
  options: { enabled: boolean; refetchInterval?: number | false },
) {
  return useQuery({
    ...experimentStatisticsQueryOptions(id),
    enabled: options.enabled,
    refetchInterval: options.refetchInterval,
  });
}
