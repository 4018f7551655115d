import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Schedule } from '@vexil/core';
import { controlChanged } from '../../controls/api/controls-cache';
import { scheduleKeys } from './query-keys';

/** The API path of a project's schedules, or of one of them and what follows it. */
export function schedulesApi(projectKey: string, id?: string, ...rest: string[]): string {
  const base = `/api/v1/projects/${encodeURIComponent(projectKey)}/schedules`;
  if (id === undefined) return base;
  return [base, encodeURIComponent(id), ...rest.map(encodeURIComponent)].join('/');
}

/**
 * After a schedule was made or acted on: its answer replaces the cached schedule and every list
 * refetches (the panel, the header's badge and the Schedule page). `wroteControl` says the action may
 * have written the control (a step advanced or approved, a rollback): every features query refreshes
 * too, so the Targeting tab and the lists show what is live now, even without a live connection.
 */
export function useScheduleChanged() {
  const queryClient = useQueryClient();
  return useCallback(
    (schedule: Schedule, wroteControl = false) => {
      queryClient.setQueryData(scheduleKeys.detail(schedule.projectKey, schedule.id), schedule);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: scheduleKeys.lists() }),
        wroteControl ? controlChanged(queryClient) : undefined,
      ]);
    },
    [queryClient],
  );
}
