import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { isApiError } from '../../../lib/api-client';
import { closeModal, showModal } from '../../../lib/modals';
import { CREATABLE_TARGET_TYPES, targetForm, type Target, type TargetForm } from '@vexil/core';
import { TARGET_TYPE_LABELS } from './operator-labels';

type TargetFormValues = z.input<typeof targetForm>;

const TYPE_HINTS: Record<TargetForm['type'], string> = {
  string: 'e.g. an e-mail address or a plan name',
  number: 'e.g. an age or a basket total',
  date: 'e.g. a sign-up date (ISO, YYYY-MM-DD)',
  segment: 'the keys of the segments a user belongs to',
};

/** `Email address` → `emailAddress`: attribute names as SDK code usually writes them. */
export function targetKeyFromName(name: string): string {
  const words = name
    .trim()
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return words
    .map((word, index) =>
      index === 0
        ? word.charAt(0).toLowerCase() + word.slice(1)
        : word.charAt(0).toUpperCase() + word.slice(1),
    )
    .join('')
    .slice(0, 100);
}

type CreateTargetFormProps = {
  initialName: string;
  create: (input: TargetForm) => Promise<Target>;
  onDone: (target: Target | null) => void;
};

/** Name, Key (following the name until edited) and Type of a new target; server errors on the fields. */
function CreateTargetForm({ initialName, create, onDone }: CreateTargetFormProps) {
  const [keyEdited, setKeyEdited] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const {
    control,
    handleSubmit,
    setValue,
    setError,
    formState: { isSubmitting },
  } = useForm<TargetFormValues, unknown, TargetForm>({
    resolver: zodResolver(targetForm),
    defaultValues: { name: initialName, key: targetKeyFromName(initialName), type: 'string' },
  });

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      onDone(await create(values));
    } catch (error) {
      if (!isApiError(error)) {
        setFailure('Something went wrong, please try again.');
        return;
      }
      const fields = error.errors.filter(
        (e) => e.field === 'key' || e.field === 'name' || e.field === 'type',
      );
      for (const { field, message } of fields) {
        setError(field as keyof TargetFormValues, { type: 'server', message });
      }
      if (fields.length === 0) setFailure(error.title ?? error.message);
    }
  });

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="New target">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          A target is a user attribute your application sends with each user, such as their e-mail or age.
          Rules compare it with the values you choose.
        </Text>
        {failure ? (
          <Alert color="red" variant="light" role="alert" icon={<IconAlertCircle size={18} aria-hidden />}>
            {failure}
          </Alert>
        ) : null}
        <Controller
          control={control}
          name="name"
          render={({ field, fieldState }) => (
            <TextInput
              label="Name"
              required
              data-autofocus
              error={fieldState.error?.message}
              {...field}
              onChange={(event) => {
                field.onChange(event);
                if (!keyEdited) setValue('key', targetKeyFromName(event.currentTarget.value));
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
              required
              description="The attribute name as your code sends it; it cannot be changed later."
              error={fieldState.error?.message}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              {...field}
              onChange={(event) => {
                setKeyEdited(true);
                field.onChange(event);
              }}
            />
          )}
        />
        <Controller
          control={control}
          name="type"
          render={({ field, fieldState }) => (
            <Select
              label="Type"
              required
              allowDeselect={false}
              data={CREATABLE_TARGET_TYPES.map((type) => ({ value: type, label: TARGET_TYPE_LABELS[type] }))}
              description={TYPE_HINTS[field.value ?? 'string']}
              error={fieldState.error?.message}
              value={field.value ?? 'string'}
              onChange={(value) => field.onChange(value ?? 'string')}
              onBlur={field.onBlur}
              ref={field.ref}
            />
          )}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => onDone(null)}>
            Cancel
          </Button>
          <Button type="submit" loading={isSubmitting}>
            Create target
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Opens "New target" on the modal stack; resolves with the created target, or null when cancelled.
 * The modal renders outside the app's providers, so `create` does the request.
 */
export function openCreateTargetModal(options: {
  initialName: string;
  create: (input: TargetForm) => Promise<Target>;
}): Promise<Target | null> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (target: Target | null) => {
      if (settled) return;
      settled = true;
      resolve(target);
    };
    const id = showModal({
      title: 'New target',
      onClose: () => finish(null),
      children: (
        <CreateTargetForm
          initialName={options.initialName}
          create={options.create}
          onDone={(target) => {
            finish(target);
            closeModal(id);
          }}
        />
      ),
    });
  });
}
