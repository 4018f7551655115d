import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { segmentKeys } from './query-keys';

/** After a segment write: refetches every segments query, so each list and search shows the change. */
export function useSegmentsChanged() {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: segmentKeys.all }), [queryClient]);
}
