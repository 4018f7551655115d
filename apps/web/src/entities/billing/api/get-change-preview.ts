import { useQuery } from '@tanstack/react-query';
import { planChangePreviewSchema, type PlanChangePreview } from '@vexil/core';
import { apiClient } from '../../../lib/api-client';
import { billingKeys } from './query-keys';

/**
 * GET /api/v1/billing/change-preview?price=: what moving to that price's plan would mean (the limits
 * already passed there, what would be lost). Failures are said in place.
 */
export function getChangePreview(priceId: string, signal?: AbortSignal): Promise<PlanChangePreview> {
  return apiClient.get(`/api/v1/billing/change-preview?price=${encodeURIComponent(priceId)}`, {
    schema: planChangePreviewSchema,
    notifyErrors: false,
    signal,
  });
}

/** Asked afresh each time the confirmation opens: the counts change with every creation. */
export function useChangePreview(priceId: string) {
  return useQuery({
    queryKey: billingKeys.changePreview(priceId),
    queryFn: ({ signal }) => getChangePreview(priceId, signal),
    enabled: priceId !== '',
    staleTime: 0,
  });
}
