import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { scheduleSchema, type Schedule, type ScheduleAction } from '@vexil/core';
import { schedulesApi, useScheduleChanged } from './schedules-cache';

export type ScheduleActionInput = {
  projectKey: string;
  id: string;
  action: ScheduleAction;
  comment?: string | undefined;
};

/** The actions that may write the control: a step applied, or the rule put back. */
const WRITING_ACTIONS: readonly ScheduleAction[] = ['advance', 'approve', 'rollback'];

/**
 * POST …/schedules/{id}/{pause|resume|advance|approve|rollback|cancel} {comment?} → the schedule as it
 * now stands, with its history. Approve before the hold has passed is 400; Advance over an approval
 * gate without the right to bypass it, or an action the state does not allow, is 409. The caller
 * words failures (the server's title).
 */
export function actOnSchedule({ projectKey, id, action, comment }: ScheduleActionInput): Promise<Schedule> {
  return apiClient.post(schedulesApi(projectKey, id, action), comment ? { comment } : {}, {
    schema: scheduleSchema,
    notifyErrors: false,
  });
}

export function useScheduleAction() {
  const changed = useScheduleChanged();
  return useMutation({
    mutationFn: actOnSchedule,
    onSuccess: (schedule, { action }) => void changed(schedule, WRITING_ACTIONS.includes(action)),
  });
}
