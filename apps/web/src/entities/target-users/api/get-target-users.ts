import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiClient } from '../../../lib/api-client';
import { pageOf } from '@vexil/core';
import { targetUserKeys } from './query-keys';

/** The Users page shows 50 users a page (the server's default page size). */
export const TARGET_USER_PAGE_SIZE = 50;

const primitive = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/**
 * One attribute as the server reports it. Wider than core's attributeValueSchema on purpose: SDKs send
 * what the application gives them, and a null (or a null in a list) must not make the whole page fail.
 */
export const reportedAttributeSchema = z.union([primitive, z.array(primitive)]);
export type ReportedAttribute = z.infer<typeof reportedAttributeSchema>;

export const reportedUserSchema = z.object({
  id: z.string(),
  attributes: z.record(z.string(), reportedAttributeSchema),
  lastSeenDate: z.string(),
});
/** A user an SDK reported in an environment, with their latest attributes and when they were last seen. */
export type ReportedUser = z.infer<typeof reportedUserSchema>;

const reportedUserPageSchema = pageOf(reportedUserSchema);
export type ReportedUserPage = z.infer<typeof reportedUserPageSchema>;

export type TargetUserPageParams = {
  projectKey: string;
  environmentKey: string;
  /** Only users whose id contains this ('' for all). */
  query: string;
  /** From 0. */
  page: number;
};

/**
 * GET /api/v1/projects/{projectKey}/environments/{environmentKey}/users?query=&page=&pageSize=50: the
 * users SDKs reported in the environment, most recently seen first.
 */
export function getTargetUsers(
  { projectKey, environmentKey, query, page }: TargetUserPageParams,
  signal?: AbortSignal,
): Promise<ReportedUserPage> {
  return apiClient.get(
    `/api/v1/projects/${encodeURIComponent(projectKey)}/environments/${encodeURIComponent(environmentKey)}/users`,
    {
      schema: reportedUserPageSchema,
      query: { query: query === '' ? undefined : query, page, pageSize: TARGET_USER_PAGE_SIZE },
      signal,
      // The Users page shows a failed load in place, with Retry: a toast would say it a second time.
      notifyErrors: false,
    },
  );
}

export const targetUsersQueryOptions = (params: TargetUserPageParams) =>
  queryOptions({
    queryKey: targetUserKeys.page(params.projectKey, params.environmentKey, params.query, params.page),
    queryFn: ({ signal }) => getTargetUsers(params, signal),
    // While another page or search loads, the previous answer stays on screen (dimmed).
    placeholderData: keepPreviousData,
  });

export function useTargetUsers(params: TargetUserPageParams) {
  return useQuery(targetUsersQueryOptions(params));
}
