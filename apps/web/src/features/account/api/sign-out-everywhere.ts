import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';

/** POST /api/v1/account/sessions/revoke-all: ends every session of the signed-in user, this one included. */
export async function signOutEverywhere(): Promise<void> {
  await apiClient.post('/api/v1/account/sessions/revoke-all');
}

export function useSignOutEverywhere() {
  return useMutation({ mutationFn: signOutEverywhere });
}
