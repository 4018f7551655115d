import { queryOptions, useQuery } from '@tanstack/react-query';
import { billingInfoSchema, type BillingInfo } from '@vexil/core';
import { apiClient } from '../../../lib/api-client';
import { billingKeys } from './query-keys';

/**
 * GET /api/v1/billing/info: the card (brand, last four) and the billing contact (organisation admins).
 * Failures are said in place, with Retry.
 */
export function getBillingInfo(signal?: AbortSignal): Promise<BillingInfo> {
  return apiClient.get('/api/v1/billing/info', { schema: billingInfoSchema, notifyErrors: false, signal });
}

export const billingInfoQueryOptions = queryOptions({
  queryKey: billingKeys.info(),
  queryFn: ({ signal }) => getBillingInfo(signal),
});

export function useBillingInfo() {
  return useQuery(billingInfoQueryOptions);
}
