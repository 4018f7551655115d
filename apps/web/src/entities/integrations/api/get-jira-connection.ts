import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { jiraConnectionSchema, type JiraConnection } from '@vexil/core';
import { integrationKeys } from './query-keys';

/**
 * GET /api/v1/integrations/jira/{id} (organisation admins): the connection's address, e-mail and whether
 * an API token is stored (never the token). The page shows a failed load in place; a 404 is Page not found.
 */
export function getJiraConnection(id: string, signal?: AbortSignal): Promise<JiraConnection> {
  return apiClient.get(`/api/v1/integrations/jira/${encodeURIComponent(id)}`, {
    schema: jiraConnectionSchema,
    notifyErrors: false,
    signal,
  });
}

export const jiraConnectionQueryOptions = (id: string) =>
  queryOptions({
    queryKey: integrationKeys.jira(id),
    queryFn: ({ signal }) => getJiraConnection(id, signal),
  });

export function useJiraConnection(id: string) {
  return useQuery(jiraConnectionQueryOptions(id));
}
