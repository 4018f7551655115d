import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiClient } from '../../../lib/api-client';
import { experimentSchema, type Experiment } from '@vexil/core';
import { experimentKeys } from './query-keys';

const experimentListSchema = z.array(experimentSchema);

export type ExperimentListParams = { projectKey: string; environmentKey: string };

/**
 * GET /api/v1/experiments/?projectKey={p}&environmentKey={e}: the environment's experiments that are
 * not archived, newest first.
 */
export function getExperiments(
  { projectKey, environmentKey }: ExperimentListParams,
  signal?: AbortSignal,
): Promise<Experiment[]> {
  return apiClient.get('/api/v1/experiments/', {
    schema: experimentListSchema,
    query: { projectKey, environmentKey },
    signal,
    // The Experiments page shows a failed load in place, with Retry; the feature page leaves its
    // Experiments section out. A toast would say it a second time.
    notifyErrors: false,
  });
}

export const experimentsQueryOptions = (params: ExperimentListParams) =>
  queryOptions({
    queryKey: experimentKeys.list(params.projectKey, params.environmentKey),
    queryFn: ({ signal }) => getExperiments(params, signal),
  });

/** The environment's experiments; `enabled` false waits (e.g. while the UI flag is off). */
export function useExperiments(params: ExperimentListParams, enabled = true) {
  return useQuery({ ...experimentsQueryOptions(params), enabled });
}
