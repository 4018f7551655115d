import { useMutation, useQueryClient } from '@tanstack/react-query';
import { jiraConnectionSchema, type JiraConnection, type JiraConnectInput } from '@vexil/core';
import { apiClient } from '../../../lib/api-client';
import { accountKeys } from '../../account/api/query-keys';
import { integrationKeys } from './query-keys';

/**
 * POST /api/v1/integrations/jira/connect {token, baseUrl, email, apiToken}: connects the organisation to a
 * Jira site with the connect page's one-time token. The server signs in to Jira with the account first,
 * refuses (400) what Jira does not accept, and stores the credentials encrypted. The form shows failures,
 * so no generic toasts.
 */
export function connectJira(input: JiraConnectInput): Promise<JiraConnection> {
  return apiClient.post('/api/v1/integrations/jira/connect', input, {
    schema: jiraConnectionSchema,
    notifyErrors: false,
  });
}

export function useConnectJira() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: connectJira,
    onSuccess: (connection) => {
      queryClient.setQueryData(integrationKeys.jira(connection.id), connection);
      void queryClient.invalidateQueries({ queryKey: integrationKeys.list() });
      void queryClient.invalidateQueries({ queryKey: integrationKeys.available() });
      // The session says whether Jira is connected (feature pages ask it for issue titles only then).
      void queryClient.invalidateQueries({ queryKey: accountKeys.initial });
    },
  });
}
