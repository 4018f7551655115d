import { useMutation } from '@tanstack/react-query';
import { invitesResultSchema, type Invite, type InvitesResult } from '@vexil/core';
import { apiClient } from '../../../lib/api-client';
import { useTeamChanged } from './team-cache';

/**
 * POST /api/v1/invites. Answers how the invitations went out (e-mailed, or links to pass on when mail
 * is not configured or failed). Errors are the form's to show, so no toasts.
 */
export function sendInvitations(invites: readonly Invite[]): Promise<InvitesResult> {
  return apiClient.post('/api/v1/invites', invites, { schema: invitesResultSchema, notifyErrors: false });
}

export function useSendInvitations() {
  const changed = useTeamChanged();
  return useMutation({ mutationFn: sendInvitations, onSuccess: () => changed() });
}
