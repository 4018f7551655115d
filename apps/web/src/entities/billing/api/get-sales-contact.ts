import { useQuery } from '@tanstack/react-query';
import { salesContactSchema, type SalesContact } from '@vexil/core';
import { apiClient } from '../../../lib/api-client';
import { billingKeys } from './query-keys';

/** GET /api/v1/billing/sales-contact: where "Contact us" leads, null when the server names no one. */
export function getSalesContact(signal?: AbortSignal): Promise<SalesContact> {
  return apiClient.get('/api/v1/billing/sales-contact', {
    schema: salesContactSchema,
    notifyErrors: false,
    signal,
  });
}

/** The server's setting does not change while it runs: read once. */
export function useSalesContact() {
  return useQuery({
    queryKey: billingKeys.salesContact(),
    queryFn: ({ signal }) => getSalesContact(signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
