/** The target-users domain's cache keys: every query starts with `all`. */
export const targetUserKeys = {
  all: ['target-users'] as const,
  /** Every page and search of one environment's SDK users. */
  environment: (projectKey: string, environmentKey: string) =>
    [...targetUserKeys.all, projectKey, environmentKey] as const,
  /** One page (from 0) of an environment's SDK users whose id contains `query` ('' for all). */
  page: (projectKey: string, environmentKey: string, query: string, page: number) =>
    [...targetUserKeys.environment(projectKey, environmentKey), query, page] as const,
};
