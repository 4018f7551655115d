/** The projects domain's cache keys: every projects query starts with `all`, so one invalidation refreshes them all. */
export const projectKeys = {
  all: ['projects'] as const,
  /** The list of projects matching `query` ('' for all). */
  list: (query: string) => [...projectKeys.all, 'list', query] as const,
};
