import { useMutation } from '@tanstack/react-query';
import { roleSchema, type Role, type RoleInput } from '@vexil/core';
import { apiClient } from '../../../lib/api-client';
import { useRolesChanged } from './roles-cache';

/**
 * PUT /api/v1/roles: creates a role (without `id`) or changes one. The Update Role modal shows
 * failures, so no toasts.
 */
export function saveRole(input: RoleInput): Promise<Role> {
  return apiClient.put('/api/v1/roles', input, { schema: roleSchema, notifyErrors: false });
}

export function useSaveRole() {
  const changed = useRolesChanged();
  return useMutation({ mutationFn: saveRole, onSuccess: () => changed() });
}
