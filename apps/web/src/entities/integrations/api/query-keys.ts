/**
 * The integrations domain's cache keys: the installed integrations, what may be added, and each Jira
 * connection's settings. Every key starts with `all`, so one invalidation refreshes them all.
 */
export const integrationKeys = {
  all: ['integrations'] as const,
  list: () => [...integrationKeys.all, 'list'] as const,
  available: () => [...integrationKeys.all, 'available'] as const,
  jira: (id: string) => [...integrationKeys.all, 'jira', id] as const,
};
