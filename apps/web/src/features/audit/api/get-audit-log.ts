import { infiniteQueryOptions, useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiClient } from '../../../lib/api-client';
import { AUDIT_PAGE_SIZE, auditPageSchema, type AuditPage } from '@vexil/core';

export const auditLogQueryKey = ['audit', 'organisation'] as const;

/**
 * GET /api/v1/audit-items?page=&pageSize=50: one page of the organisation's audit log, newest first. A
 * plan without the audit log answers 403, which the Audit tab explains itself, so no generic toasts.
 */
export function getAuditLog(page: number, signal?: AbortSignal): Promise<AuditPage> {
  return apiClient.get('/api/v1/audit-items', {
    schema: auditPageSchema,
    query: { page, pageSize: AUDIT_PAGE_SIZE },
    notifyErrors: false,
    signal,
  });
}

export const auditLogQueryOptions = infiniteQueryOptions({
  queryKey: auditLogQueryKey,
  queryFn: ({ pageParam, signal }) => getAuditLog(pageParam, signal),
  initialPageParam: 0,
  getNextPageParam: (last: AuditPage) => (last.last ? undefined : last.page + 1),
});

/** The pages loaded so far ("Load More" adds the next); `refresh` goes back to page 0 (spec §9). */
export function useAuditLog() {
  const queryClient = useQueryClient();
  const query = useInfiniteQuery(auditLogQueryOptions);
  const refresh = useCallback(
    () => queryClient.resetQueries({ queryKey: auditLogQueryKey, exact: true }),
    [queryClient],
  );
  return { ...query, refresh };
}
