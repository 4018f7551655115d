import { useId } from 'react';
import { Box, Switch, Tooltip, VisuallyHidden } from '@mantine/core';
import { hasErrorCode, isApiError } from '../../../lib/api-client';
import { confirm } from '../../../lib/modals';
import { notifyError, notifySuccess, notifyWarning } from '../../../lib/notify';
import {
  denialOf,
  isProductionEnvironment,
  productionWarning,
  type EnvironmentConstraint,
  type Feature,
  type FeatureControl,
  type Principal,
} from '@vexil/core';
import { useToggleFeatureControl } from '../../../entities/controls/api/toggle-feature-control';

/** The environment facts the toggle needs. */
export type ToggleEnvironment = EnvironmentConstraint & { name: string };

export const TOGGLE_SAVED_MESSAGE = 'Feature saved.';
export const TOGGLE_FAILED_MESSAGE = 'We encountered an error, the feature was not saved.';

/**
 * Why `user` may not switch features on or off in `environment`, or null when they may (docs/product.md §6: update
 * permission on the control, with the production constraint in production), in the server's words.
 */
export function toggleDenial(user: Principal, environment: EnvironmentConstraint): string | null {
  const constraint = {
    production: environment.production,
    tags: environment.tags ?? [],
    projectId: environment.projectId,
  };
  return denialOf(user, 'update', { type: 'featureControl', environment: constraint })?.message ?? null;
}

// The production warning of docs/product.md §2 is worded once, in core, for every tab that asks it.
export { productionWarning } from '@vexil/core';

function failureReason(error: unknown): string {
  if (!isApiError(error)) return '';
  return error.title ?? error.detail ?? '';
}

export type FeatureToggleProps = {
  feature: Pick<Feature, 'name'>;
  control: FeatureControl;
  environment: ToggleEnvironment;
  user: Principal;
};

/**
 * docs/product.md §2, §4: a feature's on/off switch in one environment. Saves at once outside production and after
 * a confirmation in production; the switch moves before the server answers and moves back if the save
 * fails. Only the switch is sent, with the control's version as the list showed it: when someone changed
 * the control since, the server refuses with its message and the list reloads to show what is stored.
 * Disabled, with the reason in a tooltip, for those who may not change the control.
 */
export function FeatureToggle({ feature, control, environment, user }: FeatureToggleProps) {
  const save = useToggleFeatureControl();
  const reasonId = useId();
  const denial = toggleDenial(user, environment);
  const label = `${feature.name} on in ${environment.name}`;

  const toggle = async (enabled: boolean) => {
    if (save.isPending) return;
    if (isProductionEnvironment(environment)) {
      const confirmed = await confirm({
        title: 'Production environment',
        message: productionWarning(feature.name, environment.name),
        confirmLabel: enabled ? 'Turn on' : 'Turn off',
      });
      if (!confirmed) return;
    }
    try {
      await save.mutateAsync({ id: control.id, enabled, lastModifiedDate: control.lastModifiedDate });
    } catch (error) {
      // A stale switch is no fault: the list now shows what is stored, and the server says who changed it.
      if (hasErrorCode(error, 'stale_write')) notifyWarning(failureReason(error));
      else notifyError(`${TOGGLE_FAILED_MESSAGE} ${failureReason(error)}`.trim());
      return;
    }
    notifySuccess(TOGGLE_SAVED_MESSAGE);
  };

  const toggleSwitch = (
    <Switch
      aria-label={label}
      aria-describedby={denial ? reasonId : undefined}
      aria-busy={save.isPending || undefined}
      checked={control.enabled}
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
