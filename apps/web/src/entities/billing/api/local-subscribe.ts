import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LocalSubscribeInput } from '@vexil/core';
import { apiClient } from '../../../lib/api-client';
import { accountKeys } from '../../account/api/query-keys';
import { billingKeys } from './query-keys';

/**
 * POST /api/v1/billing/local/subscribe {priceId, seats?}: with the local (self-hosted) billing provider,
 * puts the organisation on the chosen plan (a product's price, or `free`). The session's subscription (its limits, the trial banner) and the
 * Billing tab are reloaded. The checkout page shows failures, so no generic toasts.
 */
export function localSubscribe(input: LocalSubscribeInput): Promise<unknown> {
  return apiClient.post('/api/v1/billing/local/subscribe', input, { notifyErrors: false });
}

export function useLocalSubscribe() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: localSubscribe,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: accountKeys.initial }),
        queryClient.invalidateQueries({ queryKey: billingKeys.all }),
      ]),
  });
}
