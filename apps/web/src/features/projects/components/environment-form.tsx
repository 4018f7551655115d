import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { Button, Checkbox, Group, Stack, TextInput } from '@mantine/core';
import { closeModal, showModal } from '../../../lib/modals';
import { notifySuccess } from '../../../lib/notify';
import {
  DEFAULT_ENVIRONMENT_COLOR,
  defaultSdkCanCreateFeatures,
  environmentInput,
  normaliseEnvironmentKey,
  type Environment,
  type EnvironmentInput,
} from '@vexil/core';
import { hasErrorCode } from '../../../lib/api-client';
import { useSaveEnvironment } from '../../../entities/environments/api/save-environment';
import { useReloadProjects } from '../../../entities/projects/api/get-projects';
import {
  applyFieldErrors,
  FormFailure,
  fieldOnlyFailure,
  ReloadAction,
  useStaleReload,
} from '../../../components/form-failure';
import { ColorField } from './color-field';
import { CONNECTIVITY_MESSAGE } from './connectivity';

/** Colours offered next to the colour picker; the first is the default (docs/product.md §9). */
const SWATCHES = [
  DEFAULT_ENVIRONMENT_COLOR,
  '#2f9e44',
  '#e8590c',
  '#e03131',
  '#ae3ec9',
  '#1098ad',
  '#f08c00',
  '#495057',
];

const FIELDS = ['name', 'key', 'url', 'color', 'local', 'production', 'sdkCanCreateFeatures'] as const;

/** When Reload finds the environment gone. */
export const ENVIRONMENT_GONE_MESSAGE = 'This environment no longer exists.';

export type EnvironmentFormProps = {
  projectKey: string;
  /** The environment to update; without it the form creates one in the project. */
  environment?: Environment;
};

/**
 * docs/product.md §2 "Create/Update Environment", §5: name and key (the key follows the name until edited and is
 * normalised as typed; read-only on update), url, colour, local and production markers, and whether SDKs
 * may create features there (it follows the production marker, off in production, until edited).
 * An update sends the environment's version; refused because someone saved the environment since
 * (409 `stale_write`), it offers Reload, which loads the stored environment in place of the edit.
 */
export function EnvironmentForm({ projectKey, environment }: EnvironmentFormProps) {
  const save = useSaveEnvironment();
  const reloadProjects = useReloadProjects();
  const [keyEdited, setKeyEdited] = useState(false);
  const [sdkCreateEdited, setSdkCreateEdited] = useState(false);
  const [failure, setFailure] = useState<{ message: string; stale: boolean } | null>(null);
  const stale = useStaleReload();
  const valuesOf = (loaded: Environment | undefined): z.input<typeof environmentInput> => ({
    id: loaded?.id,
    projectKey,
    name: loaded?.name ?? '',
    key: loaded?.key ?? '',
    url: loaded?.url ?? '',
    color: loaded?.color ?? DEFAULT_ENVIRONMENT_COLOR,
    local: loaded?.local ?? false,
    production: loaded?.production ?? false,
    tags: loaded?.tags ?? [],
    sdkCanCreateFeatures: loaded?.sdkCanCreateFeatures ?? true,
    lastModifiedDate: loaded?.lastModifiedDate,
  });
  const {
    control,
    register,
    handleSubmit,
    reset,
    setError,
    setValue,
    trigger,
    formState: { errors, isSubmitting, isSubmitted },
  } = useForm({
    resolver: zodResolver(environmentInput),
    defaultValues: valuesOf(environment),
  });

  const onSubmit = handleSubmit(async (values: EnvironmentInput) => {
    setFailure(null);
    try {
      await save.mutateAsync(values);
    } catch (error) {
      // A refusal the fields say in full (the key taken) is said once, under its field.
      const message = fieldOnlyFailure(
        error,
        applyFieldErrors(error, FIELDS, setError),
        CONNECTIVITY_MESSAGE,
      );
      setFailure(message ? { message, stale: hasErrorCode(error, 'stale_write') } : null);
      return;
    }
    notifySuccess('Environment saved.');
    closeModal();
  });

  // After a stale update: the stored environment, loaded again, replaces the edit.
  const reload = (id: string) =>
    stale.reload(reloadProjects, (projects) => {
      const fresh = projects.flatMap((project) => project.environments).find((e) => e.id === id);
      if (!fresh) {
        setFailure({ message: ENVIRONMENT_GONE_MESSAGE, stale: false });
        return;
      }
      setFailure(null);
      reset(valuesOf(fresh));
    });

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label={environment ? 'Update Environment' : 'Create Environment'}
    >
      <Stack gap="md">
        <FormFailure message={failure?.message ?? null}>
          {failure?.stale && environment ? (
            <ReloadAction reloading={stale.reloading} onReload={() => void reload(environment.id)} />
          ) : null}
        </FormFailure>
        <Controller
          control={control}
          name="name"
          render={({ field, fieldState }) => (
            <TextInput
              label="Name"
              placeholder="Staging"
              data-autofocus
              required
              error={fieldState.error?.message}
              {...field}
              onChange={(event) => {
                const name = event.currentTarget.value;
                field.onChange(name);
                if (!environment && !keyEdited) {
                  setValue('key', normaliseEnvironmentKey(name.trim()), { shouldValidate: isSubmitted });
                }
              }}
            />
          )}
        />
        <Controller
          control={control}
          name="key"
          render={({ field, fieldState }) => (
            <TextInput
              label="Key"
              description={
                environment
                  ? 'The key cannot be changed: SDKs and URLs use it.'
                  : 'Lowercase letters, digits, _ and -. It follows the name until you edit it.'
              }
              required={!environment}
              readOnly={Boolean(environment)}
              error={fieldState.error?.message}
              {...field}
              onChange={(event) => {
                setKeyEdited(true);
                field.onChange(normaliseEnvironmentKey(event.currentTarget.value));
              }}
            />
          )}
        />
        <TextInput
          label="URL"
          type="url"
          placeholder="https://staging.example.com"
          description="Where this environment runs, for reference."
          error={errors.url?.message}
          {...register('url')}
        />
        <Controller
          control={control}
          name="color"
          render={({ field, fieldState }) => (
            <ColorField
              label="Colour"
              description="Marks the environment in menus and lists."
              swatches={SWATCHES}
              error={fieldState.error?.message}
              value={field.value ?? ''}
              onChange={field.onChange}
              onBlur={() => {
                field.onBlur();
                // A colour that is not valid is said at once, not only when saving (docs/product.md §5).
                void trigger('color');
              }}
              name={field.name}
              inputRef={field.ref}
            />
          )}
        />
        <Checkbox
          label="Local environment"
          description="Runs on a developer's machine; a LOCAL ENVIRONMENT banner shows while it is selected."
          {...register('local')}
        />
        <Controller
          control={control}
          name="production"
          render={({ field: { value, onChange, ...field } }) => (
            <Checkbox
              label="Production Environment?"
              description="Only Production Users can modify a production environment."
              {...field}
              checked={value}
              onChange={(event) => {
                const production = event.currentTarget.checked;
                onChange(production);
                if (!sdkCreateEdited) {
                  setValue(
                    'sdkCanCreateFeatures',
                    defaultSdkCanCreateFeatures({ production, tags: environment?.tags }),
                  );
                }
              }}
            />
          )}
        />
        <Controller
          control={control}
          name="sdkCanCreateFeatures"
          render={({ field: { value, onChange, ...field } }) => (
            <Checkbox
              label="SDKs may create features"
              description="Applications that declare features with this environment's server key create the missing ones. Off by default in production, so that features appear there only through the dashboard."
              {...field}
              checked={value ?? false}
              onChange={(event) => {
                setSdkCreateEdited(true);
                onChange(event.currentTarget.checked);
              }}
            />
          )}
        />
        <Group justify="flex-end" gap="sm" mt="xs">
          <Button variant="default" onClick={() => closeModal()}>
            Cancel
          </Button>
          <Button type="submit" loading={isSubmitting}>
            {environment ? 'Update Environment' : 'Create Environment'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Opens the Create/Update Environment modal on top of the modal stack. */
export function openEnvironmentForm(props: EnvironmentFormProps): string {
  return showModal({
    title: props.environment ? 'Update Environment' : 'Create Environment',
    children: <EnvironmentForm {...props} />,
  });
}
