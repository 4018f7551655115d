/** What the schedules list is asked for: a window (both or neither) and the filters the API takes. */
export type ScheduleListParams = {
  projectKey: string;
  from?: string | undefined;
  to?: string | undefined;
  featureKey?: string | undefined;
  environmentKey?: string | undefined;
  /** Include the latest finished schedules (completed, rolled back, cancelled). */
  finished?: boolean | undefined;
};

/**
 * The schedules domain's cache keys (docs/adr/0025-scheduler.md). Every schedules query starts with
 * `all`, so that a live `schedule.changed` refreshes the Targeting tab's panel, the feature header's
 * badge and the Schedule page at once; an action's own answer replaces the schedule's cached copy.
 */
export const scheduleKeys = {
  all: ['schedules'] as const,
  /** Every list, of every project, window and filter. */
  lists: () => [...scheduleKeys.all, 'list'] as const,
  list: ({ projectKey, ...filters }: ScheduleListParams) =>
    [...scheduleKeys.lists(), projectKey, filters] as const,
  /** One schedule, with its history. */
  detail: (projectKey: string, id: string) => [...scheduleKeys.all, 'detail', projectKey, id] as const,
  /**
   * A ramp's alert URL, without the URL itself (null when it has none). Under `all`, so that a live
   * `schedule.changed` (an alert that stopped the ramp) also refreshes when the last alert came.
   */
  alert: (projectKey: string, id: string) => [...scheduleKeys.all, 'alert', projectKey, id] as const,
};
