import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { accountKeys } from '../../account/api/query-keys';
import { teamKeys } from './query-keys';

/**
 * After a change to the team: Team Management's list and the maintainer picker load again. The
 * session (initial payload) too when the change was to the signed-in user's own record.
 */
export function useTeamChanged(): (options?: { session?: boolean }) => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(
    async (options = {}) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: teamKeys.all }),
        options.session ? queryClient.invalidateQueries({ queryKey: accountKeys.initial }) : null,
      ]);
    },
    [queryClient],
  );
}
