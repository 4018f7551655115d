import {
  infiniteQueryOptions,
  keepPreviousData,
  useInfiniteQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { apiClient } from '../../../lib/api-client';
import { AUDIT_PAGE_SIZE, auditPageSchema, type AuditAction, type AuditPage } from '@vexil/core';
import { auditKeys } from './query-keys';

/** Whose entries: the whole organisation's, or one feature's. */
export type AuditScope = { projectKey: string; featureKey: string } | null;

/** The Admin › Audit filters: a project (and a feature of it), who made the change, what it did. */
export type AuditFilters = {
  projectKey?: string | undefined;
  featureKey?: string | undefined;
  actorId?: string | undefined;
  action?: AuditAction | undefined;
};

/**
 * GET /api/v1/audit-items?projectKey=&featureKey=&page=&pageSize=50: one page of the audit log (the
 * organisation's, or one feature's), newest first. A plan without the audit log answers 403, which the
 * Audit tabs explain themselves, so no generic toasts.
 */
export function getAuditItems(
  scope: AuditScope | AuditFilters,
  page: number,
  signal?: AbortSignal,
): Promise<AuditPage> {
  return apiClient.get('/api/v1/audit-items', {
    schema: auditPageSchema,
    query: { ...scope, page, pageSize: AUDIT_PAGE_SIZE },
    notifyErrors: false,
    signal,
  });
}

const nextPage = (last: AuditPage) => (last.last ? undefined : last.page + 1);

export const auditLogQueryOptions = (filters: AuditFilters = {}) =>
  infiniteQueryOptions({
    queryKey: [...auditKeys.organisation, filters] as const,
    queryFn: ({ pageParam, signal }) => getAuditItems(filters, pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: nextPage,
    // While other filters load, the entries shown stay (dimmed) instead of a skeleton.
    placeholderData: keepPreviousData,
  });

export const featureAuditQueryOptions = (projectKey: string, featureKey: string) =>
  infiniteQueryOptions({
    queryKey: auditKeys.feature(projectKey, featureKey),
    queryFn: ({ pageParam, signal }) => getAuditItems({ projectKey, featureKey }, pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: nextPage,
  });

/**
 * The organisation's pages loaded so far, as filtered ("Load More" adds the next); `refresh` goes back
 * to page 0.
 */
export function useAuditLog(filters: AuditFilters = {}) {
  const queryClient = useQueryClient();
  const { projectKey, featureKey, actorId, action } = filters;
  const options = useMemo(
    () => auditLogQueryOptions({ projectKey, featureKey, actorId, action }),
    [projectKey, featureKey, actorId, action],
  );
  const query = useInfiniteQuery(options);
  const refresh = useCallback(
    () => queryClient.resetQueries({ queryKey: options.queryKey, exact: true }),
    [queryClient, options.queryKey],
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
