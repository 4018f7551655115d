import { infiniteQueryOptions, useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiClient } from '../../../lib/api-client';
import { AUDIT_PAGE_SIZE, auditPageSchema, type AuditPage } from '@vexil/core';
import { auditKeys } from './query-keys';

/** Whose entries: the whole organisation's, or one feature's. */
export type AuditScope = { projectKey: string; featureKey: string } | null;

/**
 * GET /api/v1/audit-items?projectKey=&featureKey=&page=&pageSize=50: one page of the audit log (the
 * organisation's, or one feature's), newest first. A plan without the audit log answers 403, which the
 * Audit tabs explain themselves, so no generic toasts.
 */
export function getAuditItems(scope: AuditScope, page: number, signal?: AbortSignal): Promise<AuditPage> {
  return apiClient.get('/api/v1/audit-items', {
    schema: auditPageSchema,
    query: { ...scope, page, pageSize: AUDIT_PAGE_SIZE },
    notifyErrors: false,
    signal,
  });
}

const nextPage = (last: AuditPage) => (last.last ? undefined : last.page + 1);

export const auditLogQueryOptions = infiniteQueryOptions({
  queryKey: auditKeys.organisation,
  queryFn: ({ pageParam, signal }) => getAuditItems(null, pageParam, signal),
  initialPageParam: 0,
  getNextPageParam: nextPage,
});

export const featureAuditQueryOptions = (projectKey: string, featureKey: string) =>
  infiniteQueryOptions({
    queryKey: auditKeys.feature(projectKey, featureKey),
    queryFn: ({ pageParam, signal }) => getAuditItems({ projectKey, featureKey }, pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: nextPage,
  });

/** The organisation's pages loaded so far ("Load More" adds the next); `refresh` goes back to page 0. */
export function useAuditLog() {
  const queryClient = useQueryClient();
  const query = useInfiniteQuery(auditLogQueryOptions);
  const refresh = useCallback(
    () => queryClient.resetQueries({ queryKey: auditKeys.organisation, exact: true }),
    [queryClient],
  );
  return { ...query, refresh };
}

/** One feature's audit pages loaded so far ("Load More" adds the next); `refresh` goes back to page 0. */
export function useFeatureAudit(projectKey: string, featureKey: string) {
  const queryClient = useQueryClient();
  const query = useInfiniteQuery(featureAuditQueryOptions(projectKey, featureKey));
  const refresh = useCallback(
    () => queryClient.resetQueries({ queryKey: auditKeys.feature(projectKey, featureKey), exact: true }),
    [queryClient, projectKey, featureKey],
  );
  return { ...query, refresh };
}
