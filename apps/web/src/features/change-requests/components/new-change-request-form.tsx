import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { changeRequestInputSchema, MAX_LENGTH, type ChangeRequestInput } from '@vexil/core';
import { applyFieldErrors, fieldOnlyFailure, FormFailure } from '../../../components/form-failure';
import { closeModal, showModal } from '../../../lib/modals';
import { notifySuccess } from '../../../lib/notify';
import { changeRequestPath } from '../../../lib/paths';
import { useCreateChangeRequest } from '../../../entities/change-requests/api/create-change-request';

export const CHANGE_REQUEST_CREATED_MESSAGE = 'Change request created.';

export type NewChangeRequestFormProps = {
  projectKey: string;
  /** The environments the user may draft changes for. */
  environments: { key: string; name: string }[];
  /** Preselected: the environment the user is in. */
  environmentKey: string;
};

/**
 * New change request: the environment (the current one unless changed), a title and a description.
 * The draft is created and its page opens, where changes are added. Rendered in the modal stack,
 * outside the session: what it needs comes through props.
 */
export function NewChangeRequestForm({
  projectKey,
  environments,
  environmentKey,
}: NewChangeRequestFormProps) {
  const create = useCreateChangeRequest();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    control,
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof changeRequestInputSchema>, unknown, ChangeRequestInput>({
    resolver: zodResolver(changeRequestInputSchema),
    defaultValues: { environmentKey, title: '', description: '' },
  });

  const onSubmit = handleSubmit(async (request) => {
    setFailure(null);
    let created;
    try {
      created = await create.mutateAsync({ projectKey, request });
    } catch (error) {
      const saidByFields = applyFieldErrors(error, ['environmentKey', 'title', 'description'], setError);
      setFailure(fieldOnlyFailure(error, saidByFields));
      return;
    }
    notifySuccess(CHANGE_REQUEST_CREATED_MESSAGE);
    closeModal();
    void navigate(changeRequestPath(projectKey, created.environmentKey, created.id));
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="New change request">
      <Stack gap="md">
        <FormFailure message={failure} />
        <Controller
          control={control}
          name="environmentKey"
          render={({ field, fieldState }) => (
            <Select
              label="Environment"
              required
              allowDeselect={false}
              data={environments.map((environment) => ({ value: environment.key, label: environment.name }))}
              error={fieldState.error?.message}
              value={field.value}
              onChange={(value) => field.onChange(value ?? '')}
              onBlur={field.onBlur}
            />
          )}
        />
        <TextInput
          label="Title"
          placeholder="Open checkout to everyone in Germany"
          required
          data-autofocus
          maxLength={MAX_LENGTH.name}
          error={errors.title?.message}
          {...register('title')}
        />
        <Textarea
          label="Description"
          placeholder="What the changes do, and why"
          rows={3}
          autosize
          maxRows={8}
          error={errors.description?.message}
          {...register('description')}
        />
        <Group justify="flex-end" gap="sm" mt="xs">
          <Button variant="default" onClick={() => closeModal()}>
            Cancel
          </Button>
          <Button type="submit" loading={isSubmitting}>
            Create change request
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Opens the New change request modal on top of the modal stack. */
export function openNewChangeRequestForm(props: NewChangeRequestFormProps): string {
  return showModal({ title: 'New change request', children: <NewChangeRequestForm {...props} /> });
}
