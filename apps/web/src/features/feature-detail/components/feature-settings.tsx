import { useEffect, useRef, useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Divider,
  Group,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { Controller, useForm, useWatch, type UseFormSetError } from 'react-hook-form';
import { hasErrorCode, isApiError } from '../../../lib/api-client';
import { useFlag } from '../../../lib/flags';
import { confirm } from '../../../lib/modals';
import { notifySuccess, notifyWarning } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import { MAX_LENGTH, can, servedChangeDenial, type Feature, type FeatureInput } from '@vexil/core';
import { useSaveFeature } from '../../../entities/features/api/save-feature';
import { useReloadFeature } from '../../../entities/features/api/get-feature';
import { PermissionNotice, ReloadAction, useStaleReload } from '../../../components/form-failure';
import { ChangeRequestOffer } from '../../../components/change-request-offer';
import { DeleteFeatureCard } from './delete-feature-button';
import { IssueKeysField, MaintainerField, TagsField } from './settings-fields';
import { settingsSchema, valuesFromFeature, type SettingsValues } from './settings-values';
import { SETTINGS_IN_REQUEST_MESSAGE, useSettingsChangeRequest } from './settings-change-request';
import { UNSAVED_EDITS_ATTRIBUTE } from './unsaved-edits';
import { VariantsEditor } from './variants-editor';

/** The server's reason for a failed save, for the toast and the form. */
export function saveFailureReason(error: unknown): string {
  if (isApiError(error)) return error.title ?? error.detail ?? error.message;
  return 'Something went wrong, please try again.';
}

/** The toast when the settings could not be put into a change request. */
export const SETTINGS_NOT_ADDED_MESSAGE = 'The settings were not added to a change request.';

const FORM_FIELDS = [
  'name',
  'key',
  'description',
  'permanent',
  'variants',
  'tags',
  'jiraIssueKeys',
  'maintainerId',
];

/** Puts the server's field errors (`variants`, `variants.1.key`, `tags.0`...) on the fields. */
function applyServerErrors(error: unknown, setError: UseFormSetError<SettingsValues>): void {
  if (!isApiError(error)) return;
  for (const { field, message } of error.errors) {
    const [top] = field.split('.');
    if (!top || !FORM_FIELDS.includes(top)) continue;
    // A message about the list as a whole sits on the list, as the form's own check does.
    const name = field === 'variants' ? 'variants.root' : field;
    setError(name as Parameters<typeof setError>[0], { type: 'server', message });
  }
}

export type FeatureSettingsProps = { feature: Feature; environmentKey: string };

/**
 * docs/product.md §2 Settings tab: the feature's settings, which apply across all environments, saved after a
 * confirmation (docs/product.md §8 toasts; a failure also marks the form). Cancel goes back to the saved feature.
 * A save refused because someone saved the settings since the form loaded (409 `stale_write`) offers
 * Reload, which loads the stored settings in place of the edit.
 * A save refused because the project asks for change requests (409 `change_request_required`) keeps
 * the edit and offers to add it to one instead (settings-change-request.ts).
 * Without update permission the form is read-only. Deleting the feature sits below.
 * The form stays mounted while other tabs show: edits wait there, and until there are some it follows
 * the feature as it is loaded again.
 */
export function FeatureSettings({ feature, environmentKey }: FeatureSettingsProps) {
  const { principalUser, projects } = useSession();
  const showTags = useFlag('tags');
  const showMaintainer = useFlag('maintainer');
  const project = projects.find((p) => p.key === feature.projectKey);
  const readOnly = !can(principalUser, 'update', { type: 'feature', projectId: project?.id });
  // Variants go into every environment's SDK payload: where one is production, changing them needs
  // production rights (the server refuses otherwise), while the other settings stay editable.
  const environments = (project?.environments ?? []).map(({ production, tags }) => ({
    production,
    tags,
    projectId: project?.id,
  }));
  const variantsDenial = readOnly ? null : (servedChangeDenial(principalUser, environments)?.message ?? null);
  const save = useSaveFeature();
  const reloadFeature = useReloadFeature();
  const changeRequest = useSettingsChangeRequest(feature, environmentKey);
  const [failure, setFailure] = useState<{ title: string; reason: string; stale: boolean } | null>(null);
  const [comment, setComment] = useState('');
  const stale = useStaleReload();
  const form = useForm<SettingsValues, unknown, FeatureInput>({
    resolver: zodResolver(settingsSchema),
    defaultValues: valuesFromFeature(feature),
  });
  const {
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isDirty },
  } = form;
  // The values as typed, to tell whether the form holds exactly what went into a change request.
  const typed = JSON.stringify(useWatch({ control }));
  const inRequest = isDirty && changeRequest.holdsAdded(typed);

  // The feature loaded again (saved from here or elsewhere) replaces the form unless it has edits;
  // edits stay based on the version they started from, so that saving them cannot silently undo
  // another save.
  const formFeature = useRef(feature);
  useEffect(() => {
    if (formFeature.current === feature) return;
    formFeature.current = feature;
    if (!form.formState.isDirty) form.reset(valuesFromFeature(feature));
  }, [feature, form]);

  /** Puts the edit into the change request the refusal named (nothing goes live, so nothing to confirm). */
  async function addToChangeRequest(values: FeatureInput) {
    setFailure(null);
    try {
      await changeRequest.add({ ...values, comment: comment.trim() }, JSON.stringify(form.getValues()));
    } catch (error) {
      const reason = saveFailureReason(error);
      notifyWarning(`${SETTINGS_NOT_ADDED_MESSAGE} ${reason}`);
      setFailure({ title: `${values.name} was not added to a change request`, reason, stale: false });
      applyServerErrors(error, setError);
      return;
    }
    setComment('');
  }

  async function confirmAndSave(values: FeatureInput) {
    if (changeRequest.throughRequest) return addToChangeRequest(values);
    const confirmed = await confirm({
      title: 'Update feature settings',
      message: `Are you sure you wish to Update ${values.name}?`,
      confirmLabel: 'Update feature',
    });
    if (!confirmed) return;
    setFailure(null);
    let saved: Feature;
    try {
      saved = await save.mutateAsync({
        projectKey: feature.projectKey,
        feature: { ...values, comment: comment.trim() },
      });
    } catch (error) {
      // Refused for want of a change request: the edit stays in the form, and the way on is offered.
      if (changeRequest.refused(error)) return;
      const reason = saveFailureReason(error);
      const staleWrite = hasErrorCode(error, 'stale_write');
      stale.toastShown(
        notifyWarning(`We encountered an error, ${values.name} was not saved. ${reason}`),
        staleWrite,
      );
      setFailure({ title: `${values.name} was not saved`, reason, stale: staleWrite });
      applyServerErrors(error, setError);
      return;
    }
    notifySuccess(`${saved.name} settings saved.`);
    setComment('');
    reset(valuesFromFeature(saved));
  }

  const onSubmit = handleSubmit((values) => void confirmAndSave(values));

  const cancel = () => {
    setFailure(null);
    setComment('');
    reset(valuesFromFeature(feature));
  };

  // After a stale save: the stored settings, loaded again, replace the edit.
  const reload = () =>
    stale.reload(
      () => reloadFeature(feature.projectKey, feature.key),
      (fresh) => {
        setFailure(null);
        reset(valuesFromFeature(fresh));
      },
    );

  return (
    <Stack gap="xl" maw={920}>
      <Card withBorder radius="md" padding="lg">
        <form
          onSubmit={onSubmit}
          noValidate
          aria-label="Feature Settings"
          {...(isDirty && !readOnly && !inRequest ? { [UNSAVED_EDITS_ATTRIBUTE]: 'the settings' } : {})}
        >
          <Stack gap="md">
            <div>
              <Title order={2} fz="xl">
                Feature Settings
              </Title>
              <Text size="sm" c="dimmed">
                Settings apply across all environments
              </Text>
            </div>
            {readOnly ? (
              <Alert color="gray" variant="light">
                You can view these settings; an editor can change them.
              </Alert>
            ) : null}
            {failure ? (
              <Alert
                color="red"
                variant="light"
                icon={<IconAlertCircle size={18} aria-hidden="true" />}
                role="alert"
                title={failure.title}
              >
                {failure.reason}
                {failure.stale ? (
                  <ReloadAction reloading={stale.reloading} onReload={() => void reload()} />
                ) : null}
              </Alert>
            ) : null}
            {changeRequest.refusal && isDirty && !inRequest ? (
              <ChangeRequestOffer reason={changeRequest.refusal} />
            ) : null}
            {inRequest ? (
              <Text size="sm" role="status">
                {SETTINGS_IN_REQUEST_MESSAGE}
              </Text>
            ) : null}
            <Controller
              control={control}
              name="name"
              render={({ field, fieldState }) => (
                <TextInput
                  label="Name"
                  required
                  disabled={readOnly}
                  error={fieldState.error?.message}
                  {...field}
                />
              )}
            />
            <Controller
              control={control}
              name="key"
              render={({ field, fieldState }) => (
                <TextInput
                  label="Key"
                  description="The key cannot be changed: SDKs use it."
                  readOnly
                  variant="filled"
                  disabled={readOnly}
                  error={fieldState.error?.message}
                  styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                  {...field}
                />
              )}
            />
            <Controller
              control={control}
              name="description"
              render={({ field, fieldState }) => (
                <Textarea
                  label="Description"
                  autosize
                  minRows={2}
                  maxRows={8}
                  disabled={readOnly}
                  error={fieldState.error?.message}
                  {...field}
                  value={field.value ?? ''}
                />
              )}
            />
            <Divider />
            {variantsDenial ? (
              <PermissionNotice>{variantsDenial} You can change the other settings.</PermissionNotice>
            ) : null}
            <VariantsEditor
              control={control}
              errors={errors}
              savedCount={feature.variants.length}
              disabled={readOnly || variantsDenial !== null}
            />
            <Divider />
            {showTags ? (
              <TagsField control={control} disabled={readOnly} projectKey={feature.projectKey} />
            ) : null}
            {showMaintainer ? (
              <MaintainerField control={control} disabled={readOnly} current={feature.maintainer} />
            ) : null}
            <IssueKeysField control={control} disabled={readOnly} />
            <Controller
              control={control}
              name="permanent"
              render={({ field }) => (
                <Checkbox
                  label="Permanent"
                  description="Meant to stay in the code for good, rather than be removed after a release."
                  disabled={readOnly}
                  checked={field.value ?? false}
                  onChange={(event) => field.onChange(event.currentTarget.checked)}
                  onBlur={field.onBlur}
                  ref={field.ref}
                />
              )}
            />
            {readOnly || !isDirty ? null : (
              <TextInput
                label="Comment"
                description="Optional: why, kept with the version this save creates."
                value={comment}
                maxLength={MAX_LENGTH.comment}
                onChange={(event) => setComment(event.currentTarget.value)}
              />
            )}
            {readOnly ? null : (
              <Group justify="flex-end" gap="sm">
                <Button
                  variant="default"
                  onClick={cancel}
                  disabled={save.isPending || changeRequest.isPending || (!isDirty && !failure)}
                >
                  Cancel
                </Button>
                <Button type="submit" loading={save.isPending || changeRequest.isPending} disabled={!isDirty}>
                  {changeRequest.throughRequest ? 'Add to change request' : 'Update feature'}
                </Button>
              </Group>
            )}
          </Stack>
        </form>
      </Card>

      <DeleteFeatureCard feature={feature} environmentKey={environmentKey} />
    </Stack>
  );
}
