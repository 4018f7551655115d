import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Experiment } from '@vexil/core';
import { experimentKeys } from './query-keys';

/**
 * After an experiment write: the saved experiment replaces its cached copy, then every experiments
 * query (lists, the experiment, its statistics) refetches, so each screen shows the change.
 */
export function useExperimentsChanged() {
  const queryClient = useQueryClient();
  return useCallback(
    (saved?: Experiment) => {
      if (saved) queryClient.setQueryData(experimentKeys.detail(saved.id), saved);
      return queryClient.invalidateQueries({ queryKey: experimentKeys.all });
    },
    [queryClient],
  );
}
