import { useId } from 'react';
import { Box, Switch, Tooltip, VisuallyHidden } from '@mantine/core';
import { confirm } from '../../../lib/modals';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { isProductionEnvironment, productionWarning, type Experiment } from '@vexil/core';
import { errorReason } from '../../../components/load-error';
import { experimentSaveOf, useSaveExperiment } from '../../../entities/experiments/api/save-experiment';

export const EXPERIMENT_TOGGLE_FAILED_MESSAGE = 'We encountered an error, the experiment was not saved.';

/** The production warning of docs/product.md §2, worded as for a feature's switch. */
export function experimentProductionWarning(experimentName: string, environmentName: string): string {
  return productionWarning(experimentName, environmentName);
}

/** What a switch flipped to `enabled` did, for the toast. */
export function toggledMessage(experiment: Pick<Experiment, 'name'>, enabled: boolean): string {
  return enabled ? `${experiment.name} is running.` : `${experiment.name} has finished.`;
}

export type ExperimentToggleProps = {
  experiment: Experiment;
  environment: { name: string; production: boolean; tags?: readonly string[] };
  /** Why the user may not switch it, or null when they may. */
  denial: string | null;
};

/**
 * An experiment's enabled switch (docs/product.md §4 "Experiment"). Switching it on starts the
 * experiment (the first time, its start date), off finishes it (its end date); on again runs a
 * finished one again. In production it asks first, as a feature's switch does. The switch shows the
 * new position while the save is on its way and goes back if it fails. Disabled, with the reason,
 * for those who may not change experiments here.
 */
export function ExperimentToggle({ experiment, environment, denial }: ExperimentToggleProps) {
  const save = useSaveExperiment();
  const reasonId = useId();
  const checked = save.isPending ? Boolean(save.variables.enabled) : experiment.enabled;

  const toggle = async (enabled: boolean) => {
    if (save.isPending) return;
    if (isProductionEnvironment(environment)) {
      const confirmed = await confirm({
        title: 'Production environment',
        message: experimentProductionWarning(experiment.name, environment.name),
        confirmLabel: enabled ? 'Start experiment' : 'Stop experiment',
      });
      if (!confirmed) return;
    }
    try {
      await save.mutateAsync(experimentSaveOf(experiment, { enabled }));
    } catch (error) {
      notifyError(`${EXPERIMENT_TOGGLE_FAILED_MESSAGE} ${errorReason(error)}`.trim());
      return;
    }
    notifySuccess(toggledMessage(experiment, enabled));
  };

  const toggleSwitch = (
    <Switch
      aria-label={`${experiment.name} enabled`}
      aria-describedby={denial ? reasonId : undefined}
      aria-busy={save.isPending || undefined}
      checked={checked}
      disabled={denial !== null}
      onChange={(event) => void toggle(event.currentTarget.checked)}
      color="teal"
      size="md"
    />
  );
  if (!denial) return toggleSwitch;
  // A disabled input receives no pointer events, so the tooltip hangs on a wrapper.
  return (
    <Tooltip label={denial} withArrow multiline maw={260}>
      <Box component="span" display="inline-block">
        {toggleSwitch}
        <VisuallyHidden id={reasonId}>{denial}</VisuallyHidden>
      </Box>
    </Tooltip>
  );
}
