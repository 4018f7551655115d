import { useMutation } from '@tanstack/react-query';
import { roleSchema, type Role } from '@vexil/core';
import { apiClient } from '../../../lib/api-client';
import { useRolesChanged } from './roles-cache';

/** PUT /api/v1/roles/{id}/members: exactly these members hold the role from their next request on. */
export function setRoleMembers({ roleId, userIds }: { roleId: string; userIds: string[] }): Promise<Role> {
  return apiClient.put(
    `/api/v1/roles/${encodeURIComponent(roleId)}/members`,
    { userIds },
    { schema: roleSchema, notifyErrors: false },
  );
}

export function useSetRoleMembers() {
  const changed = useRolesChanged();
  return useMutation({ mutationFn: setRoleMembers, onSuccess: () => changed() });
}
