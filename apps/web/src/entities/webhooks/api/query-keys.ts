/**
 * The outgoing webhooks domain's cache keys: a project's webhooks, and each webhook's delivery log.
 * Every key starts with `all`, so one invalidation refreshes them all.
 */
export const webhookKeys = {
  all: ['webhooks'] as const,
  project: (projectKey: string) => [...webhookKeys.all, 'project', projectKey] as const,
  list: (projectKey: string) => [...webhookKeys.project(projectKey), 'list'] as const,
  deliveries: (projectKey: string, webhookId: string) =>
    [...webhookKeys.project(projectKey), 'deliveries', webhookId] as const,
};

const segment = encodeURIComponent;

/** `/api/v1/projects/{projectKey}/webhooks[/{id}]`. */
export function webhooksPath(projectKey: string, webhookId?: string): string {
  const list = `/api/v1/projects/${segment(projectKey)}/webhooks`;
  return webhookId === undefined ? list : `${list}/${segment(webhookId)}`;
}
