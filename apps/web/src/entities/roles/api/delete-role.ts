import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { useRolesChanged } from './roles-cache';

/** DELETE /api/v1/roles/{id} → 204; refused (409) while members hold it. The caller says how it went. */
export async function deleteRole(id: string): Promise<void> {
  await apiClient.delete(`/api/v1/roles/${encodeURIComponent(id)}`, { notifyErrors: false });
}

export function useDeleteRole() {
  const changed = useRolesChanged();
  return useMutation({ mutationFn: deleteRole, onSettled: () => changed() });
}
