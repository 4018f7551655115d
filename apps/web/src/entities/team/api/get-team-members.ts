import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { teamMemberSchema, type TeamMember } from '@vexil/core';
import { apiClient } from '../../../lib/api-client';
import { teamKeys } from './query-keys';

/**
 * GET /api/v1/users: the members and pending invitations (organisation admins). A failure is said in
 * place, with Retry, so no toast.
 */
export function getTeamMembers(signal?: AbortSignal): Promise<TeamMember[]> {
  return apiClient.get('/api/v1/users', { schema: z.array(teamMemberSchema), notifyErrors: false, signal });
}

export const teamMembersQueryOptions = queryOptions({
  queryKey: teamKeys.users,
  queryFn: ({ signal }) => getTeamMembers(signal),
});

export function useTeamMembers() {
  return useQuery(teamMembersQueryOptions);
}
