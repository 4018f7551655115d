import { useMutation } from '@tanstack/react-query';
import { resetPasswordFinishResponse, type ResetPasswordFinishResponse } from '@vexil/core';
import { apiClient } from '../../../lib/api-client';

/**
 * POST /api/account/reset_password/init for the organisation `domain` names (the address's own wins
 * on the server). Answers alike whether or not the e-mail has an account.
 */
export async function requestPasswordReset(input: { email: string; domain: string | undefined }) {
  await apiClient.post('/api/account/reset_password/init', input, {
    authenticated: false,
    notifyErrors: false,
  });
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}

/** POST /api/account/reset_password/finish: answers the organisation to sign in to. */
export function finishPasswordReset(input: {
  key: string;
  password: string;
}): Promise<ResetPasswordFinishResponse> {
  return apiClient.post('/api/account/reset_password/finish', input, {
    schema: resetPasswordFinishResponse,
    authenticated: false,
    notifyErrors: false,
  });
}

export function useFinishPasswordReset() {
  return useMutation({ mutationFn: finishPasswordReset });
}
