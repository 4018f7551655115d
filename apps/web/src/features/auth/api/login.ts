import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { authenticateResponse, type LoginForm } from '@vexil/core';
import { rememberOrganisation } from '../../../lib/remembered-organisation';

export type LoginInput = LoginForm & { domain: string };

/**
 * POST /api/authenticate. The session comes back as an HttpOnly cookie; the page never handles the token.
 * Failures are for the form to show, so no generic toasts and no trip to /logout on 401.
 */
export async function login(input: LoginInput): Promise<void> {
  await apiClient.post(
    '/api/authenticate',
    { username: input.email, password: input.password, domain: input.domain, rememberMe: input.rememberMe },
    { schema: authenticateResponse, authenticated: false, notifyErrors: false },
  );
  apiClient.sessionStarted();
  rememberOrganisation(input.domain);
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
