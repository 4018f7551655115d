/**
 * The segments domain's cache keys. Every segments query starts with `all`, so one invalidation after a
 * segment write refreshes every list and search, the segment pickers of the targeting editor included.
 */
export const segmentKeys = {
  all: ['segments'] as const,
  /** The segments of one environment matching `query` ('' for all). */
  list: (projectKey: string, environmentKey: string, query: string) =>
    [...segmentKeys.all, 'list', projectKey, environmentKey, query] as const,
};
