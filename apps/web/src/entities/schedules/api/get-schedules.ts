import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { scheduleListSchema, type ScheduleList } from '@vexil/core';
import { schedulesApi } from './schedules-cache';
import { scheduleKeys, type ScheduleListParams } from './query-keys';

/**
 * GET /api/v1/projects/{projectKey}/schedules?from=&to=&featureKey=&environmentKey=&finished=: the
 * pending occurrences in the window (now → 14 days without one) and the unfinished schedules matching
 * the filters (with the latest finished ones when `finished`). The screens show a failure in place,
 * with Retry, so no generic toasts.
 */
export function getSchedules(
  { projectKey, from, to, featureKey, environmentKey, finished }: ScheduleListParams,
  signal?: AbortSignal,
): Promise<ScheduleList> {
  return apiClient.get(schedulesApi(projectKey), {
    schema: scheduleListSchema,
    query: { from, to, featureKey, environmentKey, finished: finished ? 'true' : undefined },
    signal,
    notifyErrors: false,
  });
}

export const schedulesQueryOptions = (params: ScheduleListParams) =>
  queryOptions({
    queryKey: scheduleKeys.list(params),
    queryFn: ({ signal }) => getSchedules(params, signal),
  });

/**
 * The list; the previous answer stays on screen while another filter loads. Asked again every minute
 * (and on focus), since due times pass while the page is open; `enabled` false waits.
 */
export function useSchedules(params: ScheduleListParams, enabled = true) {
  return useQuery({
    ...schedulesQueryOptions(params),
    enabled,
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
    refetchOnWindowFocus: true,
  });
}
