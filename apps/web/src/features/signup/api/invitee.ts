import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { inviteeSchema, inviteeSignupResponse, type InviteeSignupInput } from '@vexil/core';
import { apiClient } from '../../../lib/api-client';
import { rememberOrganisation } from '../../../lib/remembered-organisation';
import { signupKeys } from './query-keys';

/** GET /api/v1/signup/invitee/{activationKey}: 404 for an unknown, expired or cancelled invitation. */
export function inviteeQueryOptions(activationKey: string) {
  return queryOptions({
    queryKey: signupKeys.invitee(activationKey),
    queryFn: ({ signal }) =>
      apiClient.get(`/api/v1/signup/invitee/${encodeURIComponent(activationKey)}`, {
        schema: inviteeSchema,
        authenticated: false,
        notifyErrors: false,
        signal,
      }),
    retry: false,
    staleTime: Infinity,
  });
}

export function useInvitee(activationKey: string) {
  return useQuery(inviteeQueryOptions(activationKey));
}

/**
 * POST /api/v1/signup/invitee/: activates the invited member and signs them in; the session comes
 * back as the HttpOnly cookie, as for sign-in.
 */
export async function acceptInvitation(input: InviteeSignupInput): Promise<void> {
  const { domain } = await apiClient.post('/api/v1/signup/invitee/', input, {
    schema: inviteeSignupResponse,
    authenticated: false,
    notifyErrors: false,
  });
  apiClient.sessionStarted();
  rememberOrganisation(domain);
}

export function useAcceptInvitation() {
  return useMutation({ mutationFn: acceptInvitation });
}
