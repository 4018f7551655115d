import type { EnvironmentRef, Experiment, ExperimentInput } from '@vexil/core';
import { ValidationError } from '../../errors';
import type { ExperimentRecord } from './experiments.types';

/** What the experiments service answers and refuses: an experiment as the API shows it, and the rules on its design. */

function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}

/** The experiment as the API answers it; `results` from `currentResults` (experiment-results.ts). */
export function toExperiment(
  row: ExperimentRecord,
  environment: EnvironmentRef,
  results: Experiment['results'],
): Experiment {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    enabled: row.enabled,
    goalKey: row.goalKey,
    featureId: row.featureId,
    featureKey: row.featureKey,
    environmentId: environment.id,
    environmentKey: environment.key,
    projectKey: environment.project.key,
    control: row.control,
    variation: row.variation,
    startDate: iso(row.startDate),
    endDate: iso(row.endDate),
    archived: row.archived,
    mode: row.mode,
    results,
    feature: { id: row.featureId, key: row.featureKey, name: row.featureName },
  };
}

/**
 * Once an experiment has started, what it measures is fixed: changing the feature, the variants, the
 * goal or the mode would mix users counted under different designs into one result.
 */
export function assertSameDesign(row: ExperimentRecord, input: ExperimentInput) {
  const fields = [
    ['featureId', row.featureId, input.featureId, 'feature'],
    ['control', row.control, input.control, 'control variant'],
    ['variation', row.variation, input.variation, 'alternate variant'],
    ['goalKey', row.goalKey, input.goalKey, 'goal'],
    ['mode', row.mode, input.mode, 'mode'],
  ] as const;
  for (const [field, before, after, label] of fields)
    if (before !== after)
      throw new ValidationError(
        field,
        `The ${label} of an experiment cannot change once it has started. Create a new experiment instead.`,
      );
}

export function nameTaken(name: string) {
  return new ValidationError('name', `An experiment named "${name}" already exists in this environment.`);
}
