import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, NumberInput, Skeleton, Stack, Switch } from '@mantine/core';
import type { z } from 'zod';
import {
  approvalSettingsSchema,
  isOrganisationAdmin,
  MAX_REQUIRED_APPROVALS,
  type ApprovalSettings,
  type Principal,
} from '@vexil/core';
import {
  applyFieldErrors,
  fieldOnlyFailure,
  FormFailure,
  PermissionNotice,
} from '../../../components/form-failure';
import { LoadError } from '../../../components/load-error';
import { closeModal, showModal } from '../../../lib/modals';
import { notifySuccess } from '../../../lib/notify';
import { useApprovalSettings } from '../../../entities/change-requests/api/get-approval-settings';
import { useSaveApprovalSettings } from '../../../entities/change-requests/api/save-approval-settings';

export const APPROVAL_SETTINGS_SAVED_MESSAGE = 'Approval settings saved.';
export const APPROVAL_SETTINGS_ADMINS_ONLY = 'Only organisation admins can change approval settings.';
/** What an emptied Minimum approvals says (the schema's own message is about types). */
export const MIN_APPROVALS_REQUIRED = `Enter a number of approvals from 1 to ${MAX_REQUIRED_APPROVALS}.`;

const FIELDS = [
  'required',
  'minApprovals',
  'allowSelfApproval',
  'resetApprovalsOnChange',
  'autoApply',
] as const;

const SWITCHES = [
  {
    name: 'allowSelfApproval',
    label: 'Allow self-approval',
    description: 'The author’s own approval counts towards the minimum.',
  },
  {
    name: 'resetApprovalsOnChange',
    label: 'Reset approvals when the request changes',
    description: 'Editing a request in review withdraws the approvals it had.',
  },
  {
    name: 'autoApply',
    label: 'Apply automatically on the last approval',
    description: 'The approval that completes the count applies the request at once.',
  },
] as const;

type FormProps = {
  projectKey: string;
  environment: { key: string; name: string };
  settings: ApprovalSettings;
  readOnly: boolean;
  onDone?: () => void;
};

function SettingsFields({ projectKey, environment, settings, readOnly, onDone }: FormProps) {
  const save = useSaveApprovalSettings();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    control,
    handleSubmit,
    reset,
    setError,
    formState: { isDirty, isSubmitting },
  } = useForm<z.input<typeof approvalSettingsSchema>, unknown, ApprovalSettings>({
    resolver: zodResolver(approvalSettingsSchema),
    defaultValues: settings,
  });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    let saved: ApprovalSettings;
    try {
      saved = await save.mutateAsync({ projectKey, environmentKey: environment.key, settings: values });
    } catch (error) {
      setFailure(fieldOnlyFailure(error, applyFieldErrors(error, FIELDS, setError)));
      return;
    }
    reset(saved);
    notifySuccess(APPROVAL_SETTINGS_SAVED_MESSAGE);
    onDone?.();
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label={`Approval settings of ${environment.name}`}>
      <Stack gap="md">
        {readOnly ? <PermissionNotice>{APPROVAL_SETTINGS_ADMINS_ONLY}</PermissionNotice> : null}
        <FormFailure message={failure} />
        <Controller
          control={control}
          name="required"
          render={({ field }) => (
            <Switch
              label="Require change requests"
              description={`Changes to ${environment.name} are drafted, reviewed and applied in change requests instead of written directly.`}
              checked={field.value}
              onChange={(event) => field.onChange(event.currentTarget.checked)}
              onBlur={field.onBlur}
              disabled={readOnly}
            />
          )}
        />
        <Controller
          control={control}
          name="minApprovals"
          render={({ field, fieldState }) => (
            <NumberInput
              label="Minimum approvals"
              description={`How many reviewers must approve, from 1 to ${MAX_REQUIRED_APPROVALS}.`}
              min={1}
              max={MAX_REQUIRED_APPROVALS}
              allowDecimal={false}
              allowNegative={false}
              clampBehavior="none"
              w={{ base: '100%', xs: 260 }}
              value={Number.isNaN(field.value) ? '' : field.value}
              onChange={(value) => field.onChange(value === '' ? Number.NaN : Number(value))}
              onBlur={field.onBlur}
              readOnly={readOnly}
              disabled={readOnly}
              error={
                fieldState.error
                  ? Number.isNaN(field.value)
                    ? MIN_APPROVALS_REQUIRED
                    : fieldState.error.message
                  : null
              }
            />
          )}
        />
        {SWITCHES.map(({ name, label, description }) => (
          <Controller
            key={name}
            control={control}
            name={name}
            render={({ field }) => (
              <Switch
                label={label}
                description={description}
                checked={field.value ?? false}
                onChange={(event) => field.onChange(event.currentTarget.checked)}
                onBlur={field.onBlur}
                disabled={readOnly}
              />
            )}
          />
        ))}
        <Group justify="flex-end" gap="sm">
          {onDone ? (
            <Button variant="default" onClick={onDone}>
              {readOnly ? 'Close' : 'Cancel'}
            </Button>
          ) : null}
          {readOnly ? null : (
            <Button type="submit" disabled={!isDirty} loading={isSubmitting}>
              Save approval settings
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}

export type ApprovalSettingsFormProps = {
  projectKey: string;
  environment: { key: string; name: string };
  /** Production editors see the settings; only organisation admins change them. */
  readOnly: boolean;
  /** Closes what holds the form (the modal), after a save or on Cancel. */
  onDone?: () => void;
};

/**
 * An environment's approval settings (docs/adr/0024-change-requests.md): whether changes go through
 * change requests, the approvals needed (1–5), self-approval, resetting approvals on a change and
 * applying on the last approval. Loaded and saved through the approval-settings routes and checked
 * with core's schema; Save waits for a change. Read-only for production editors.
 */
export function ApprovalSettingsForm({
  projectKey,
  environment,
  readOnly,
  onDone,
}: ApprovalSettingsFormProps) {
  const settings = useApprovalSettings(projectKey, environment.key);
  if (settings.isError) {
    return (
      <LoadError
        title="We could not load the approval settings."
        error={settings.error}
        retrying={settings.isFetching}
        onRetry={() => void settings.refetch()}
      />
    );
  }
  if (!settings.data) {
    return (
      <Stack gap="md" aria-busy="true" aria-label="Loading the approval settings">
        {[0, 1, 2, 3, 4].map((row) => (
          <Skeleton key={row} height={28} />
        ))}
      </Stack>
    );
  }
  return (
    <SettingsFields
      projectKey={projectKey}
      environment={environment}
      settings={settings.data}
      readOnly={readOnly}
      onDone={onDone}
    />
  );
}

/** Opens an environment's approval settings in a modal: editable for organisation admins, else read-only. */
export function openApprovalSettingsModal({
  projectKey,
  environment,
  user,
}: {
  projectKey: string;
  environment: { key: string; name: string };
  user: Principal;
}): string {
  return showModal({
    title: `Approval settings of ${environment.name}`,
    children: (
      <ApprovalSettingsForm
        projectKey={projectKey}
        environment={environment}
        readOnly={!isOrganisationAdmin(user)}
        onDone={() => closeModal()}
      />
    ),
  });
}
