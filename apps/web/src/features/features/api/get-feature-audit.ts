import { infiniteQueryOptions, useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiClient } from '../../../lib/api-client';
import { AUDIT_PAGE_SIZE, auditPageSchema, type AuditPage } from '@vexil/core';

export const featureAuditQueryKey = (projectKey: string, featureKey: string) =>
  ['features', 'audit', projectKey, featureKey] as const;

/**
 * GET /api/v1/audit-items?projectKey=&featureKey=&page=&pageSize=50: one page of a feature's audit log,
 * newest first. A plan without the audit log answers 403, which the Audit tab explains itself, so no
 * generic toasts.
 */
export function getFeatureAudit(
  projectKey: string,
  featureKey: string,
  page: number,
  signal?: AbortSignal,
): Promise<AuditPage> {
  return apiClient.get('/api/v1/audit-items', {
    schema: auditPageSchema,
    query: { projectKey, featureKey, page, pageSize: AUDIT_PAGE_SIZE },
    notifyErrors: false,
    signal,
  });
}

export const featureAuditQueryOptions = (projectKey: string, featureKey: string) =>
  infiniteQueryOptions({
    queryKey: featureAuditQueryKey(projectKey, featureKey),
    queryFn: ({ pageParam, signal }) => getFeatureAudit(projectKey, featureKey, pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: (last: AuditPage) => (last.last ? undefined : last.page + 1),
  });

/** The audit pages loaded so far ("Load More" adds the next); `refresh` goes back to page 0 (spec §9). */
export function useFeatureAudit(projectKey: string, featureKey: string) {
  const queryClient = useQueryClient();
  const query = useInfiniteQuery(featureAuditQueryOptions(projectKey, featureKey));
  const refresh = useCallback(
    () => queryClient.resetQueries({ queryKey: featureAuditQueryKey(projectKey, featureKey), exact: true }),
    [queryClient, projectKey, featureKey],
  );
  return { ...query, refresh };
}
