import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { approvalSettingsSchema, type ApprovalSettings } from '@vexil/core';
import { approvalSettingsApi } from './get-approval-settings';
import { changeRequestKeys } from './query-keys';

export type SaveApprovalSettingsInput = {
  projectKey: string;
  environmentKey: string;
  settings: ApprovalSettings;
};

/**
 * PUT …/environments/{environmentKey}/approval-settings (organisation admins) → the settings as stored.
 * The form shows failures itself, so no generic toasts.
 */
export function saveApprovalSettings({
  projectKey,
  environmentKey,
  settings,
}: SaveApprovalSettingsInput): Promise<ApprovalSettings> {
  return apiClient.put(approvalSettingsApi(projectKey, environmentKey), settings, {
    schema: approvalSettingsSchema,
    notifyErrors: false,
  });
}

/**
 * Saves, then keeps the answer as the environment's settings (the banner and the Save buttons of its
 * screens read them). Open requests count their approvals against the new settings: their lists, pages
 * and the waiting count refresh.
 */
export function useSaveApprovalSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveApprovalSettings,
    onSuccess: (saved, { projectKey, environmentKey }) => {
      queryClient.setQueryData(changeRequestKeys.approvalSettings(projectKey, environmentKey), saved);
      void queryClient.invalidateQueries({ queryKey: changeRequestKeys.all });
    },
  });
}
