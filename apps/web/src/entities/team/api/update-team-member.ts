import { useMutation } from '@tanstack/react-query';
import { teamMemberSchema, type TeamMember, type UserUpdateInput } from '@vexil/core';
import { apiClient } from '../../../lib/api-client';
import { useTeamChanged } from './team-cache';

/** PUT /api/v1/users: an active member's names and role. Errors are the form's to show, so no toasts. */
export function updateTeamMember(input: UserUpdateInput): Promise<TeamMember> {
  const { id, firstName, lastName, authority } = input;
  return apiClient.put(
    '/api/v1/users',
    { id, firstName, lastName, authority },
    { schema: teamMemberSchema, notifyErrors: false },
  );
}

/** `selfId`: the signed-in user, whose session is loaded again when they change their own names. */
export function useUpdateTeamMember(selfId: string) {
  const changed = useTeamChanged();
  return useMutation({
    mutationFn: updateTeamMember,
    onSuccess: (member) => changed({ session: member.id === selfId }),
  });
}
