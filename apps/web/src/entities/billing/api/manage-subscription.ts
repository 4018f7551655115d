import { useMutation } from '@tanstack/react-query';
import { redirectUrlSchema, type RedirectUrl } from '@vexil/core';
import { apiClient } from '../../../lib/api-client';

/**
 * POST /api/v1/billing/subscription/manage: the page where the organisation's billing details are
 * managed, the provider's portal (absolute) or, with the local provider, the dashboard's own
 * (`/admin/billing/manage`). A failure (503 when the provider is
 * unavailable) is the portal dialog of docs/product.md §8, so no generic toasts.
 */
export function manageSubscription(): Promise<RedirectUrl> {
  return apiClient.post('/api/v1/billing/subscription/manage', undefined, {
    schema: redirectUrlSchema,
    notifyErrors: false,
  });
}

export function useManageSubscription() {
  return useMutation({ mutationFn: manageSubscription });
}
