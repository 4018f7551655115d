import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import { Alert, Anchor, Button, Group, Stack, Textarea, TextInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { hasErrorCode } from '../../../lib/api-client';
import { closeModal, showModal } from '../../../lib/modals';
import { notifySuccess } from '../../../lib/notify';
import { featureInput, normaliseFeatureKey, type Feature } from '@vexil/core';
import { useSaveFeature } from '../../../entities/features/api/save-feature';
import { applyFieldErrors, formFailureMessage } from '../../../components/form-failure';
import { adminPath } from '../../../lib/paths';

/** Name, key and description; everything else takes featureInput's defaults (variants On and Off). */
const newFeatureForm = featureInput.pick({ name: true, key: true, description: true });
const FIELDS = ['name', 'key', 'description'] as const;

export type NewFeatureFormProps = {
  projectKey: string;
  /** Called with the created feature (whose key the server may have made unique), after the toast. */
  onCreated: (feature: Feature) => void;
};

/**
 * docs/product.md §2 "Feature list" New Feature, §5 "Feature": name and key required; the key is derived from the
 * name while untouched and normalised; the server makes it unique in the project.
 */
export function NewFeatureForm({ projectKey, onCreated }: NewFeatureFormProps) {
  const save = useSaveFeature();
  const [keyEdited, setKeyEdited] = useState(false);
  // docs/product.md §8 "Feature limit": the plan's limit (code `limit_reached`) comes with an upgrade link.
  const [failure, setFailure] = useState<{ message: string; limitReached: boolean } | null>(null);
  const {
    control,
    register,
    handleSubmit,
    setError,
    setValue,
    formState: { errors, isSubmitting, isSubmitted },
  } = useForm({
    resolver: zodResolver(newFeatureForm),
    defaultValues: { name: '', key: '', description: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    let created: Feature;
    try {
      created = await save.mutateAsync({ projectKey, feature: featureInput.parse(values) });
    } catch (error) {
      applyFieldErrors(error, FIELDS, setError);
      setFailure({ message: formFailureMessage(error), limitReached: hasErrorCode(error, 'limit_reached') });
      return;
    }
    notifySuccess(`${created.name} saved.`);
    closeModal();
    onCreated(created);
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="New feature">
      <Stack gap="md">
        {failure ? (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertCircle size={18} aria-hidden="true" />}
            role="alert"
          >
            {failure.message}
            {failure.limitReached ? (
              <>
                {' '}
                <Anchor component={Link} to={adminPath('billing')} onClick={() => closeModal()} inherit>
                  Upgrade your plan
                </Anchor>
              </>
            ) : null}
          </Alert>
        ) : null}
        <Controller
          control={control}
          name="name"
          render={({ field, fieldState }) => (
            <TextInput
              label="Name"
              placeholder="New checkout"
              data-autofocus
              required
              error={fieldState.error?.message}
              {...field}
              onChange={(event) => {
                const name = event.currentTarget.value;
                field.onChange(name);
                if (!keyEdited) setValue('key', normaliseFeatureKey(name), { shouldValidate: isSubmitted });
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
              description="What SDKs ask for. It follows the name until you edit it, and cannot change later."
              required
              error={fieldState.error?.message}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              {...field}
              onChange={(event) => {
                setKeyEdited(true);
                field.onChange(event.currentTarget.value);
              }}
              // Cleaned on leaving the field: cleaning as typed would swallow a dash before the next word.
              onBlur={() => {
                field.onChange(normaliseFeatureKey(field.value));
                field.onBlur();
              }}
            />
          )}
        />
        <Textarea
          label="Description"
          placeholder="What the feature changes, for whom"
          rows={3}
          error={errors.description?.message}
          {...register('description')}
        />
        <Group justify="flex-end" gap="sm" mt="xs">
          <Button variant="default" onClick={() => closeModal()}>
            Cancel
          </Button>
          <Button type="submit" loading={isSubmitting}>
            Create Feature
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Opens the "New feature" modal on top of the modal stack. */
export function openNewFeatureModal(props: NewFeatureFormProps): string {
  return showModal({ title: 'New feature', children: <NewFeatureForm {...props} /> });
}
