/**
 * The experiments domain's cache keys. Every experiments query starts with `all`, so one invalidation
 * after an experiment write refreshes every list, experiment and statistics.
 */
export const experimentKeys = {
  all: ['experiments'] as const,
  /** The non-archived experiments of one environment. */
  list: (projectKey: string, environmentKey: string) =>
    [...experimentKeys.all, 'list', projectKey, environmentKey] as const,
  /** One experiment. */
  detail: (id: string) => [...experimentKeys.all, 'detail', id] as const,
  /** One experiment's statistics. */
  statistics: (id: string) => [...experimentKeys.all, 'statistics', id] as const,
  /** A project's goals matching `query` ('' for all). */
  goals: (projectKey: string, query: string) => ['goals', projectKey, query] as const,
};
