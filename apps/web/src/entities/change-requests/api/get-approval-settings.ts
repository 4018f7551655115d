import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { approvalSettingsSchema, type ApprovalSettings } from '@vexil/core';
import { changeRequestKeys } from './query-keys';

/** The API path of an environment's approval settings. */
export function approvalSettingsApi(projectKey: string, environmentKey: string): string {
  return `/api/v1/projects/${encodeURIComponent(projectKey)}/environments/${encodeURIComponent(environmentKey)}/approval-settings`;
}

/**
 * GET …/environments/{environmentKey}/approval-settings: whether the environment asks for change
 * requests, and how they are approved. Organisation admins and production editors may read them; the
 * callers ask only for those, and show a failure themselves.
 */
export function getApprovalSettings(
  projectKey: string,
  environmentKey: string,
  signal?: AbortSignal,
): Promise<ApprovalSettings> {
  return apiClient.get(approvalSettingsApi(projectKey, environmentKey), {
    schema: approvalSettingsSchema,
    signal,
    notifyErrors: false,
  });
}

export const approvalSettingsQueryOptions = (projectKey: string, environmentKey: string) =>
  queryOptions({
    queryKey: changeRequestKeys.approvalSettings(projectKey, environmentKey),
    queryFn: ({ signal }) => getApprovalSettings(projectKey, environmentKey, signal),
  });

/** One environment's approval settings; `enabled` false waits (a user who may not read them). */
export function useApprovalSettings(projectKey: string, environmentKey: string, enabled = true) {
  return useQuery({ ...approvalSettingsQueryOptions(projectKey, environmentKey), enabled });
}
