import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Checkbox, ColorInput, Group, Stack, TextInput } from '@mantine/core';
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
import { useSaveEnvironment } from '../../../entities/environments/api/save-environment';
import { applyFieldErrors, FormFailure, formFailureMessage } from '../../../components/form-failure';
import { CONNECTIVITY_MESSAGE } from './connectivity';

/** Colours offered next to the colour picker; the first is the default (spec §9). */
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

export type EnvironmentFormProps = {
  projectKey: string;
  /** The environment to update; without it the form creates one in the project. */
  environment?: Environment;
};

/**
 * Spec §2 "Create/Update Environment", §5: name and key (the key follows the name until edited and is
 * normalised as typed; read-only on update), url, colour, local and production markers, and whether SDKs
 * may create features there (it follows the production marker, off in production, until edited).
 */
export function EnvironmentForm({ projectKey, environment }: EnvironmentFormProps) {
  const save = useSaveEnvironment();
  const [keyEdited, setKeyEdited] = useState(false);
  const [sdkCreateEdited, setSdkCreateEdited] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const {
    control,
    register,
    handleSubmit,
    setError,
    setValue,
    formState: { errors, isSubmitting, isSubmitted },
  } = useForm({
    resolver: zodResolver(environmentInput),
    defaultValues: {
      id: environment?.id,
      projectKey,
      name: environment?.name ?? '',
      key: environment?.key ?? '',
      url: environment?.url ?? '',
      color: environment?.color ?? DEFAULT_ENVIRONMENT_COLOR,
      local: environment?.local ?? false,
      production: environment?.production ?? false,
      tags: environment?.tags ?? [],
      sdkCanCreateFeatures: environment?.sdkCanCreateFeatures ?? true,
    },
  });

  const onSubmit = handleSubmit(async (values: EnvironmentInput) => {
    setFailure(null);
    try {
      await save.mutateAsync(values);
    } catch (error) {
      applyFieldErrors(error, FIELDS, setError);
      setFailure(formFailureMessage(error, CONNECTIVITY_MESSAGE));
      return;
    }
    notifySuccess('Environment saved.');
    closeModal();
  });

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label={environment ? 'Update Environment' : 'Create Environment'}
    >
      <Stack gap="md">
        <FormFailure message={failure} />
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
            <ColorInput
              label="Colour"
              description="Marks the environment in menus and lists."
              required
              format="hex"
              swatches={SWATCHES}
              swatchesPerRow={8}
              error={fieldState.error?.message}
              value={field.value ?? ''}
              onChange={field.onChange}
              onBlur={field.onBlur}
              name={field.name}
              ref={field.ref}
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
