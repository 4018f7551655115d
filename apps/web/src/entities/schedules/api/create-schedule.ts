import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { scheduleSchema, type Schedule, type ScheduleInput } from '@vexil/core';
import { schedulesApi, useScheduleChanged } from './schedules-cache';

export type CreateScheduleInput = { projectKey: string; schedule: ScheduleInput };

/**
 * POST /api/v1/projects/{projectKey}/schedules → 201, the schedule. 400 with field errors, 403 without
 * the rights to change the environment, 409 `change_request_required` in an environment whose changes
 * go through change requests (schedule an approved one instead), 404 for an unknown feature or
 * environment; the form shows them.
 */
export function createSchedule({ projectKey, schedule }: CreateScheduleInput): Promise<Schedule> {
  return apiClient.post(schedulesApi(projectKey), schedule, { schema: scheduleSchema, notifyErrors: false });
}

export function useCreateSchedule() {
  const changed = useScheduleChanged();
  return useMutation({ mutationFn: createSchedule, onSuccess: (created) => void changed(created) });
}
