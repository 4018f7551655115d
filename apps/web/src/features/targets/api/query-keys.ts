/** Every targets query starts with this key, so one invalidation refreshes them all. */
export const targetsQueryKey = ['targets'] as const;

/** Every page and search of one environment's SDK users. */
export const targetUsersQueryKey = (projectKey: string, environmentKey: string) =>
  [...targetsQueryKey, 'users', projectKey, environmentKey] as const;

/** One page (from 0) of an environment's SDK users whose id contains `query` ('' for all). */
export const targetUserPageQueryKey = (
  projectKey: string,
  environmentKey: string,
  query: string,
  page: number,
) => [...targetUsersQueryKey(projectKey, environmentKey), query, page] as const;
