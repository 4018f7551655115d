import { useMutation } from '@tanstack/react-query';
import { redirectUrlSchema, type ChangeSubscriptionInput, type RedirectUrl } from '@vexil/core';
import { apiClient } from '../../../lib/api-client';

/**
 * POST /api/v1/billing/subscription/change {subscriptionId}: `subscriptionId` is the id of the chosen
 * plan's price (one per interval). Answers where to go to confirm or pay; a refusal is a 400 whose
 * `detail` the change dialog shows (docs/product.md §8), so no generic toasts.
 */
export function changeSubscription(input: ChangeSubscriptionInput): Promise<RedirectUrl> {
  return apiClient.post('/api/v1/billing/subscription/change', input, {
    schema: redirectUrlSchema,
    notifyErrors: false,
  });
}

export function useChangeSubscription() {
  return useMutation({ mutationFn: changeSubscription });
}
