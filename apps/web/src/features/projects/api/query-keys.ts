/** Every projects query starts with this key, so one invalidation refreshes them all. */
export const projectsQueryKey = ['projects'] as const;

/** The list of projects matching `query` ('' for all). */
export const projectListQueryKey = (query: string) => [...projectsQueryKey, 'list', query] as const;
