/** Every segments query starts with this key, so one invalidation refreshes them all. */
export const segmentsQueryKey = ['segments'] as const;

/** The segments of one environment matching `query` ('' for all). */
export const segmentListQueryKey = (projectKey: string, environmentKey: string, query: string) =>
  [...segmentsQueryKey, 'list', projectKey, environmentKey, query] as const;
