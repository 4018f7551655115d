import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { IntegrationFilters } from '@vexil/core';
import { apiClient } from '../../../lib/api-client';
import { integrationKeys } from './query-keys';

export type SaveIntegrationFiltersVariables = { id: string; filters: IntegrationFilters };

/**
 * PUT /api/v1/integrations/{id}/filters: which projects, environments and kinds of change the integration
 * passes on (an empty list: all). The form shows failures, so no generic toasts.
 */
export async function saveIntegrationFilters({
  id,
  filters,
}: SaveIntegrationFiltersVariables): Promise<void> {
  await apiClient.put(`/api/v1/integrations/${encodeURIComponent(id)}/filters`, filters, {
    notifyErrors: false,
  });
}

export function useSaveIntegrationFilters() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveIntegrationFilters,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: integrationKeys.list() }),
  });
}
