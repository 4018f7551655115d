import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { ChangeRequest } from '@vexil/core';
import { controlChanged } from '../../controls/api/controls-cache';
import { changeRequestKeys } from './query-keys';

/**
 * After an action on a request: its answer replaces the cached request, and the lists, the waiting
 * count and the policies (the caller's draft) refetch (its state, approvals or changes moved). A request that ends applied has written its
 * changes: every features query refreshes too, so the lists and pages show what is live now.
 */
export function useChangeRequestChanged() {
  const queryClient = useQueryClient();
  return useCallback(
    (request: ChangeRequest) => {
      queryClient.setQueryData(changeRequestKeys.detail(request.projectKey, request.id), request);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: changeRequestKeys.lists() }),
        queryClient.invalidateQueries({ queryKey: changeRequestKeys.waiting() }),
        // The caller's open draft (where "Add to change request" adds) may have come or gone.
        queryClient.invalidateQueries({ queryKey: [...changeRequestKeys.all, 'policy'] }),
        request.state === 'applied' ? controlChanged(queryClient) : undefined,
      ]);
    },
    [queryClient],
  );
}

/** The API path of a project's change requests, or of one of them and what follows it. */
export function changeRequestsApi(projectKey: string, id?: string, ...rest: string[]): string {
  const base = `/api/v1/projects/${encodeURIComponent(projectKey)}/change-requests`;
  if (id === undefined) return base;
  return [base, encodeURIComponent(id), ...rest.map(encodeURIComponent)].join('/');
}
