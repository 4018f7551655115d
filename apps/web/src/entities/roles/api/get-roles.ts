import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { authorityOptionSchema, roleSchema, type AuthorityOption, type Role } from '@vexil/core';
import { apiClient } from '../../../lib/api-client';
import { roleKeys } from './query-keys';

/** GET /api/v1/roles: the custom roles by name, with their grants and members. A failure is said in place. */
export function getRoles(signal?: AbortSignal): Promise<Role[]> {
  return apiClient.get('/api/v1/roles', { schema: z.array(roleSchema), notifyErrors: false, signal });
}

export const rolesQueryOptions = () =>
  queryOptions({ queryKey: roleKeys.list(), queryFn: ({ signal }) => getRoles(signal) });

export function useRoles() {
  return useQuery(rolesQueryOptions());
}

/** GET /api/v1/iam/authorities: the four built-in authorities and what each may do. */
export function getAuthorities(signal?: AbortSignal): Promise<AuthorityOption[]> {
  return apiClient.get('/api/v1/iam/authorities', {
    schema: z.array(authorityOptionSchema),
    notifyErrors: false,
    signal,
  });
}

export function useAuthorities() {
  return useQuery({
    queryKey: roleKeys.authorities(),
    queryFn: ({ signal }) => getAuthorities(signal),
    staleTime: Infinity,
  });
}
