import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  ssoConnectionSchema,
  type SsoConnection,
  type SsoConnectionInput,
  type SsoSettings,
} from '@vexil/core';
import { apiClient } from '../../../lib/api-client';
import { ssoKeys } from './query-keys';

/**
 * PUT /api/v1/sso: creates or replaces the organisation's connection. `clientSecret` omitted keeps the
 * stored secret and "" clears it. The server reads the issuer's discovery document first and refuses
 * (400) an issuer it cannot read. The form shows failures, so no toasts.
 */
export function saveSsoConnection(input: SsoConnectionInput): Promise<SsoConnection> {
  return apiClient.put('/api/v1/sso', input, { schema: ssoConnectionSchema, notifyErrors: false });
}

export function useSaveSsoConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveSsoConnection,
    onSuccess: (connection) => {
      queryClient.setQueryData<SsoSettings>(ssoKeys.settings(), (settings) =>
        settings ? { ...settings, connection } : settings,
      );
      void queryClient.invalidateQueries({ queryKey: ssoKeys.all });
    },
  });
}
