import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { scheduleSchema, type Schedule } from '@vexil/core';
import { schedulesApi } from './schedules-cache';
import { scheduleKeys } from './query-keys';

/**
 * GET /api/v1/projects/{projectKey}/schedules/{id}: the schedule with its history, oldest first. An
 * unknown one is 404; the caller shows failures in place.
 */
export function getSchedule(projectKey: string, id: string, signal?: AbortSignal): Promise<Schedule> {
  return apiClient.get(schedulesApi(projectKey, id), { schema: scheduleSchema, signal, notifyErrors: false });
}

export const scheduleQueryOptions = (projectKey: string, id: string) =>
  queryOptions({
    queryKey: scheduleKeys.detail(projectKey, id),
    queryFn: ({ signal }) => getSchedule(projectKey, id, signal),
  });

/** One schedule with its history; `enabled` false waits (a history not opened yet). */
export function useSchedule(projectKey: string, id: string, enabled = true) {
  return useQuery({ ...scheduleQueryOptions(projectKey, id), enabled });
}
