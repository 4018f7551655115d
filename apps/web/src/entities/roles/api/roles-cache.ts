import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { accountKeys } from '../../account/api/query-keys';
import { roleKeys } from './query-keys';

/**
 * After a change to roles: the list loads again, and so does the session, whose grants decide what the
 * signed-in member's buttons allow when they hold the role changed.
 */
export function useRolesChanged(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: roleKeys.all }),
      queryClient.invalidateQueries({ queryKey: accountKeys.initial }),
    ]);
  }, [queryClient]);
}
