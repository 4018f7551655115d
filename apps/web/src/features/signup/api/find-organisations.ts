import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';

/** POST /api/v1/account/findorganisations: answers alike whether or not the address has organisations. */
export async function findOrganisations(input: { email: string }) {
  await apiClient.post('/api/v1/account/findorganisations', input, {
    authenticated: false,
    notifyErrors: false,
  });
}

export function useFindOrganisations() {
  return useMutation({ mutationFn: findOrganisations });
}
