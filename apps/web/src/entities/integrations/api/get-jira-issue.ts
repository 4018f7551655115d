import { queryOptions, useQuery } from '@tanstack/react-query';
import { jiraIssueSchema, type JiraIssue } from '@vexil/core';
import { apiClient } from '../../../lib/api-client';
import { integrationKeys } from './query-keys';

/** The server remembers an issue 10 minutes; asking again sooner would get the same answer. */
const ISSUE_STALE_MS = 10 * 60 * 1000;

/**
 * GET /api/v1/integrations/jira/issues/{key} (members): the issue's title and page on the connected Jira
 * site, with an empty title when Jira cannot be reached; 404 when no Jira is connected or it has no such
 * issue. Callers show the bare key then, so no toasts.
 */
export function getJiraIssue(key: string, signal?: AbortSignal): Promise<JiraIssue> {
  return apiClient.get(`/api/v1/integrations/jira/issues/${encodeURIComponent(key)}`, {
    schema: jiraIssueSchema,
    notifyErrors: false,
    signal,
  });
}

export const jiraIssueQueryOptions = (key: string) =>
  queryOptions({
    queryKey: [...integrationKeys.all, 'issue', key] as const,
    queryFn: ({ signal }) => getJiraIssue(key, signal),
    staleTime: ISSUE_STALE_MS,
    retry: false,
  });

/** An issue's title and page, asked only when `enabled` (the feature does not know its title yet). */
export function useJiraIssue(key: string, enabled: boolean) {
  return useQuery({ ...jiraIssueQueryOptions(key), enabled });
}
