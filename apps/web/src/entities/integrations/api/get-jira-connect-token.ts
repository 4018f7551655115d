import { useMutation } from '@tanstack/react-query';
import { jiraConnectTokenSchema, type JiraConnectToken } from '@vexil/core';
import { apiClient } from '../../../lib/api-client';

/**
 * GET /api/v1/integrations/jira/connect-token → {token, expiresDate}: a one-time token for the connect
 * page (/admin/integrations/jira/connect?token=…), which sends it back with the connection. The caller
 * says how it went.
 */
export function getJiraConnectToken(): Promise<JiraConnectToken> {
  return apiClient.get('/api/v1/integrations/jira/connect-token', {
    schema: jiraConnectTokenSchema,
    notifyErrors: false,
  });
}

/** A mutation rather than a query: each visit without a token asks for a fresh one, never cached. */
export function useJiraConnectToken() {
  return useMutation({ mutationFn: getJiraConnectToken });
}
