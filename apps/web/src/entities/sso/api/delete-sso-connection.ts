import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SsoSettings } from '@vexil/core';
import { apiClient } from '../../../lib/api-client';
import { ssoKeys } from './query-keys';

/**
 * DELETE /api/v1/sso → 204: removes the organisation's connection, and with it the sign-in button and
 * the requirement. The caller says how it went.
 */
export async function deleteSsoConnection(): Promise<void> {
  await apiClient.delete('/api/v1/sso', { notifyErrors: false });
}

export function useDeleteSsoConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSsoConnection,
    onSuccess: () => {
      queryClient.setQueryData<SsoSettings>(ssoKeys.settings(), (settings) =>
        settings ? { ...settings, connection: null } : settings,
      );
      void queryClient.invalidateQueries({ queryKey: ssoKeys.all });
    },
  });
}
