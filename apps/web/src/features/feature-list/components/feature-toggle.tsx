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
import {
  defaultChangeRequestTitle,
  useAddToChangeRequest,
} from '../../../entities/change-requests/hooks/use-add-to-change-request';
import {
  protectedEnvironmentMessage,
  useEnvironmentProtection,
} from '../../../entities/change-requests/hooks/use-environment-protection';

/** The environment facts the toggle needs. */
export type ToggleEnvironment = EnvironmentConstraint & { name: string };

export const TOGGLE_SAVED_MESSAGE = 'Feature saved.';
export const TOGGLE_FAILED_MESSAGE = 'We encountered an error, the feature was not saved.';
export const NOT_ADDED_MESSAGE = 'The change was not added to a change request.';

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
  feature: Pick<Feature, 'name' | 'projectKey'>;
  control: FeatureControl;
  environment: ToggleEnvironment;
  user: Principal;
};

/**
 * docs/product.md §2, §4: a feature's on/off switch in one environment. Saves at once outside production and after
 * a confirmation in production; the switch moves before the server answers and moves back if the save
 * fails. Only the switch is sent, with the control's version as the list showed it: when someone changed
 * the control since, the server refuses with its message and the list reloads to show what is stored.
 * Disabled, with the reason in a tooltip, for those who may not change the control. In an environment
 * that asks for change requests (known from its approval settings, or from the server's 409
 * `change_request_required`), the switch offers to add the change to the user's draft there instead
 * (docs/adr/0024-change-requests.md); the switch stays where it is live until the request is applied.
 */
export function FeatureToggle({ feature, control, environment, user }: FeatureToggleProps) {
  const save = useToggleFeatureControl();
  const toChangeRequest = useAddToChangeRequest();
  const reasonId = useId();
  const denial = toggleDenial(user, environment);
  const label = `${feature.name} on in ${environment.name}`;
  const where = { ...environment, key: control.environmentKey };
  const protection = useEnvironmentProtection(user, feature.projectKey, where);

  /** Asks to put the switch's move into a change request, and does so once agreed. */
  const offerChangeRequest = async (enabled: boolean, reason: string, changeRequestId?: string | null) => {
    const move = `${enabled ? 'Turn on' : 'Turn off'} ${feature.name}`;
    const confirmed = await confirm({
      title: 'Change request needed',
      message: `${reason} Add “${move}” to a change request? Nothing changes in ${environment.name} until the request is approved and applied.`,
      confirmLabel: 'Add to change request',
    });
    if (!confirmed) return;
    const { offVariantKey, rules, lastModifiedDate } = control;
    try {
      await toChangeRequest.add({
        projectKey: feature.projectKey,
        environmentKey: control.environmentKey,
        title: defaultChangeRequestTitle(feature.name, environment.name),
        change: { kind: 'control', id: control.id, enabled, offVariantKey, rules, lastModifiedDate },
        changeRequestId,
      });
    } catch (error) {
      notifyError(`${NOT_ADDED_MESSAGE} ${failureReason(error)}`.trim());
    }
  };

  const toggle = async (enabled: boolean) => {
    if (save.isPending || toChangeRequest.isPending) return;
    if (protection.throughRequest) {
      await offerChangeRequest(enabled, protectedEnvironmentMessage(environment.name));
      return;
    }
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
      if (hasErrorCode(error, 'change_request_required')) {
        await offerChangeRequest(enabled, failureReason(error), error.changeRequestId ?? null);
        return;
      }
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
      aria-busy={save.isPending || toChangeRequest.isPending || undefined}
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
