import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { jiraConnectionSchema, type JiraConnection, type JiraConnectionInput } from '@vexil/core';
import { integrationKeys } from './query-keys';

export type SaveJiraConnectionVariables = { id: string; input: JiraConnectionInput };

/**
 * PUT /api/v1/integrations/jira/{id}: changes the address or the account. An API token left out keeps the
 * stored one. The form shows failures, so no generic toasts.
 */
export function saveJiraConnection({ id, input }: SaveJiraConnectionVariables): Promise<JiraConnection> {
  return apiClient.put(`/api/v1/integrations/jira/${encodeURIComponent(id)}`, input, {
    schema: jiraConnectionSchema,
    notifyErrors: false,
  });
}

export function useSaveJiraConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveJiraConnection,
    onSuccess: (connection) => {
      queryClient.setQueryData(integrationKeys.jira(connection.id), connection);
      void queryClient.invalidateQueries({ queryKey: integrationKeys.list() });
    },
  });
}
