import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { experimentSchema, type Experiment, type ExperimentInput } from '@vexil/core';
import { useExperimentsChanged } from './experiments-cache';

/** What the form and the switch send: the whole experiment, with `id` when it exists. */
export type ExperimentSave = ExperimentInput;

/**
 * POST /api/v1/experiments/ (no `id`) → 201, or PUT /api/v1/experiments/ (with `id`) → 200, with the
 * experiment. A PUT sends the whole experiment: switching one on or off is a PUT with `enabled`
 * changed (the server sets the start date on the first start, the end date on a stop, and clears the
 * end date when a finished one starts again). Errors are the caller's to show (400 with field errors,
 * 400 `limit_reached`, 403 `forbidden` / `production_rights_required`, 404), so no generic toasts.
 */
export function saveExperiment(input: ExperimentSave): Promise<Experiment> {
  return input.id
    ? apiClient.put('/api/v1/experiments/', input, { schema: experimentSchema, notifyErrors: false })
    : apiClient.post('/api/v1/experiments/', input, { schema: experimentSchema, notifyErrors: false });
}

export function useSaveExperiment() {
  const changed = useExperimentsChanged();
  return useMutation({
    mutationFn: saveExperiment,
    onSuccess: (saved) => void changed(saved),
  });
}

/** The body that saves `experiment` as it is, with `changes` applied (e.g. `{enabled: false}`). */
export function experimentSaveOf(
  experiment: Experiment,
  changes: Partial<Omit<ExperimentSave, 'id'>> = {},
): ExperimentSave {
  return {
    id: experiment.id,
    projectKey: experiment.projectKey,
    environmentKey: experiment.environmentKey,
    name: experiment.name,
    description: experiment.description,
    goalKey: experiment.goalKey,
    featureId: experiment.featureId,
    control: experiment.control,
    variation: experiment.variation,
    enabled: experiment.enabled,
    mode: experiment.mode,
    ...changes,
  };
}
