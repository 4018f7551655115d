import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BillingContactInput } from '@vexil/core';
import { apiClient } from '../../../lib/api-client';
import { billingKeys } from './query-keys';

/**
 * PUT /api/v1/billing/local/contact: with the local (self-hosted) billing provider, the billing contact
 * shown on the Billing tab. The form shows failures, so no generic toasts.
 */
export function saveLocalContact(contact: BillingContactInput): Promise<unknown> {
  return apiClient.put('/api/v1/billing/local/contact', contact, { notifyErrors: false });
}

export function useSaveLocalContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveLocalContact,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: billingKeys.info() }),
  });
}
