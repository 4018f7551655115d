import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiClient } from '../../../lib/api-client';
import { memberSchema } from '@vexil/core';
import { teamKeys } from './query-keys';

const membersSchema = z.array(memberSchema.extend({ email: z.string().optional() }));

export type MemberOption = z.infer<typeof membersSchema>[number];

/** GET /api/v1/members?query=: the organisation's members matching the text, for the maintainer picker. */
export function getMembers(query = '', signal?: AbortSignal): Promise<MemberOption[]> {
  return apiClient.get('/api/v1/members', { schema: membersSchema, query: { query }, signal });
}

export const membersQueryOptions = (query = '') =>
  queryOptions({
    queryKey: teamKeys.members(query),
    queryFn: ({ signal }) => getMembers(query, signal),
  });

/** Options keep showing while the next ones load. */
export function useMembers(query = '', enabled = true) {
  return useQuery({ ...membersQueryOptions(query), enabled, placeholderData: keepPreviousData });
}
