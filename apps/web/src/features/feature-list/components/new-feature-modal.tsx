import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import { Alert, Anchor, Button, Group, Stack, Textarea, TextInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { hasErrorCode } from '../../../lib/api-client';
import { closeModal, showModal } from '../../../lib/modals';
import { notifySuccess } from '../../../lib/notify';
import { featureInput, normaliseFeatureKey, type Feature } from '@vexil/core';
import { useSaveFeature } from '../../../entities/features/api/save-feature';
import {
  featureKeyAsTyped,
  keyTakenMessage,
  useKeyField,
  useNewFeatureKey,
} from '../../../entities/features/api/check-feature-key';
import { applyFieldErrors, formFailureMessage } from '../../../components/form-failure';
import { KeyTakenError } from '../../../components/key-taken-error';
import { adminPath } from '../../../lib/paths';

/** Name, key and description; everything else takes featureInput's defaults (variants On and Off). */
const newFeatureForm = featureInput.pick({ name: true, key: true, description: true });
const FIELDS = ['name', 'key', 'description'] as const;

export type NewFeatureFormProps = {
  projectKey: string;
  /** Called with the created feature, after the toast. */
  onCreated: (feature: Feature) => void;
};

/**
 * docs/product.md §2 "Feature list" New Feature, §5 "Feature": name and key required; the key follows the name,
 * made unique in the project, until the user types one; a typed key is normalised as typed. What the Key
 * field shows is the key created: a taken key is refused, never changed behind the user's back.
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
    getValues,
    setError,
    setFocus,
    setValue,
    formState: { errors, isSubmitting, isSubmitted },
  } = useForm({
    resolver: zodResolver(newFeatureForm),
    defaultValues: { name: '', key: '', description: '' },
  });
  const name = useWatch({ control, name: 'name' });
  const key = useWatch({ control, name: 'key' });
  const keyField = useKeyField({ getValues, setValue, setError, setFocus }, isSubmitted);
  const { taken, mayCreate } = useNewFeatureKey({ projectKey, name, key, keyEdited, field: keyField });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    if (!(await mayCreate(projectKey, values.key))) return;
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
              error={
                taken ? (
                  <KeyTakenError
                    message={keyTakenMessage(taken.key)}
                    freeKey={taken.freeKey}
                    onUse={keyField.set}
                  />
                ) : (
                  fieldState.error?.message
                )
              }
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              {...field}
              onChange={(event) => {
                setKeyEdited(true);
                field.onChange(featureKeyAsTyped(event.currentTarget.value));
              }}
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
