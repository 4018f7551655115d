import { useMutation } from '@tanstack/react-query';
import { authenticateResponse } from '@vexil/core';
import { apiClient } from '../../../lib/api-client';
import { rememberOrganisation } from '../../../lib/remembered-organisation';

export type TokenLoginInput = { token: string; domain: string | undefined; rememberMe: boolean };

/** POST /api/authenticate/token: exchanges a one-time token for a session cookie. */
export async function tokenLogin(input: TokenLoginInput): Promise<void> {
  await apiClient.post(
    '/api/authenticate/token',
    { token: input.token, domain: input.domain, rememberMe: input.rememberMe },
    { schema: authenticateResponse, authenticated: false, notifyErrors: false },
  );
  apiClient.sessionStarted();
  if (input.domain) rememberOrganisation(input.domain);
}

export function useTokenLogin() {
  return useMutation({ mutationFn: tokenLogin });
}
